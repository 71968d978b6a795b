#!/usr/bin/env bash
# Lists every public declaration of the library modules that has no doc comment, and
# prints how many public declarations each module has and how many of them are
# undocumented. Fails (exit 1) when any is undocumented.
#
# It reads the symbol graphs `swift package dump-symbol-graph` writes: public symbols
# declared in the source, without members the compiler synthesizes or that are inherited
# from protocols and classes (their documentation lives where they are declared). A module's count includes what it
# declares in extensions of other modules' types (`Module@Other.symbols.json`).
#
#   scripts/check-docs.sh                  every library module; exit 1 if a public declaration lacks docs
#   scripts/check-docs.sh MODULE...        only those modules
#   scripts/check-docs.sh --counts [MODULE...]   only the counts per module; always exit 0
set -euo pipefail
cd "$(dirname "$0")/.."
counts_only=0
if [ "${1:-}" = "--counts" ]; then
    counts_only=1
    shift
fi
modules=(Chipmunk ChipmunkScenes ChipmunkAnimation ChipmunkDynamics ChipmunkBatch ChipmunkPictures ChipmunkCatalog ChipmunkLive)
[ "$#" -gt 0 ] && modules=("$@")

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# It also tries the test modules, and fails on them where the tests have not been built:
# what matters is that every library module's graph is there.
swift package dump-symbol-graph --skip-synthesized-members --skip-inherited-docs >"$log" 2>&1 || true
# The last line names the folder: "Files written to /…/symbolgraph".
folder=$(grep -o '/[^ ]*symbolgraph' "$log" | tail -1)
for module in "${modules[@]}"; do
    if [ ! -f "$folder/$module.symbols.json" ]; then
        cat "$log" >&2
        echo "check-docs.sh: swift package dump-symbol-graph wrote no symbol graph of $module" >&2
        exit 2
    fi
done

python3 - "$folder" "$counts_only" "${modules[@]}" <<'EOF'
import json, os, sys

folder, counts_only, modules = sys.argv[1], sys.argv[2] == "1", sys.argv[3:]
missing, totals = [], {}
for module in modules:
    public = undocumented = 0
    names = [f for f in sorted(os.listdir(folder))
             if f == f"{module}.symbols.json" or f.startswith(f"{module}@")]
    for name in names:
        graph = json.load(open(os.path.join(folder, name)))
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if "location" not in symbol:
                continue  # made by the compiler (an enum's init(rawValue:)): nothing to write on
            public += 1
            lines = (symbol.get("docComment") or {}).get("lines") or []
            if any(line.get("text", "").strip() for line in lines):
                continue
            undocumented += 1
            location = symbol.get("location") or {}
            path = location.get("uri", "?").split("/Sources/", 1)[-1]
            line = location.get("position", {}).get("line", -1) + 1
            title = ".".join(symbol["pathComponents"])
            missing.append(f"Sources/{path}:{line}: {module}: {symbol['kind']['displayName'].lower()} {title}")
    totals[module] = (public, undocumented)

if not counts_only:
    for entry in sorted(missing):
        print(entry)
print(f"{'module':<20} {'public':>7} {'undocumented':>13}")
for module, (public, undocumented) in totals.items():
    print(f"{module:<20} {public:>7} {undocumented:>13}")
all_public = sum(p for p, _ in totals.values())
print(f"{'all':<20} {all_public:>7} {len(missing):>13}")
sys.exit(0 if counts_only or not missing else 1)
EOF
