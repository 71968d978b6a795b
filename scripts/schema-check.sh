#!/usr/bin/env bash
# Checks the JSON Schemas with a real validator (check-jsonschema, from PyPI):
# - both schemas against the 2020-12 metaschema;
# - every scene in Scenes/ against schemas/scene.schema.json, every sweep in Sweeps/
#   against schemas/sweep.schema.json;
# - each file of the bad corpus (Tests/Schemas/bad-scenes, bad-sweeps) is rejected by the
#   schema AND by chipmunk-sim's loader, so that the two agree on what is wrong.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
need_build_deps
if ! command -v check-jsonschema >/dev/null 2>&1; then
    echo "Installing check-jsonschema from PyPI ..."
    pip_install check-jsonschema
fi

swift_build --product chipmunk-sim
sim="$(swift_bin_path)/chipmunk-sim"

check-jsonschema --check-metaschema schemas/scene.schema.json schemas/sweep.schema.json
check-jsonschema --schemafile schemas/scene.schema.json Scenes/*.json
check-jsonschema --schemafile schemas/sweep.schema.json Sweeps/*.json

failures=0
# The bad files against the schemas, in one process: jsonschema (check-jsonschema's own
# validator library, Draft 2020-12) lists each file the schema accepts. One
# check-jsonschema run a file took about a minute of CI for 44 files, most of it starting
# Python.
accepted="$(python3 - <<'PY'
import json, pathlib, sys
from jsonschema import Draft202012Validator
for schema, folder in (("schemas/scene.schema.json", "Tests/Schemas/bad-scenes"),
                       ("schemas/sweep.schema.json", "Tests/Schemas/bad-sweeps")):
    validator = Draft202012Validator(json.loads(pathlib.Path(schema).read_text()))
    for file in sorted(pathlib.Path(folder).glob("*.json")):
        try:
            instance = json.loads(file.read_text())
        except ValueError:
            continue  # not JSON at all: no schema accepts it
        if validator.is_valid(instance):
            print(file)
PY
)"
for file in $accepted; do
    echo "schema-check: the schema accepts $file" >&2
    failures=$((failures + 1))
done
reject() {  # reject FILE COMMAND...: chipmunk-sim must refuse FILE, with a message
    local file="$1"
    shift
    local message
    if message="$("$@" 2>&1 >/dev/null)"; then
        echo "schema-check: chipmunk-sim accepts $file" >&2
        failures=$((failures + 1))
    elif [ -z "$message" ] || ! grep -q "chipmunk-sim: " <<<"$message"; then
        echo "schema-check: chipmunk-sim refused $file without a message: $message" >&2
        failures=$((failures + 1))
    fi
}
count=0
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for file in Tests/Schemas/bad-scenes/*.json; do
    reject "$file" "$sim" run "$file" --steps 1 --output /dev/null
    count=$((count + 1))
done
for file in Tests/Schemas/bad-sweeps/*.json; do
    reject "$file" "$sim" sweep --sweep "$file" --db "$tmp/$(basename "$file").sqlite"
    count=$((count + 1))
done
# The schema chooses a constraint's keys by its type: a typo in a rotaryLimit is reported
# as that key, not as "'pin' was expected" (a oneOf's closest other branch).
message="$(check-jsonschema --schemafile schemas/scene.schema.json Tests/Schemas/bad-scenes/rotary-limit-typo.json 2>&1 || true)"
if ! grep -q "'mx' was unexpected" <<<"$message" || grep -q "was expected" <<<"$message"; then
    echo "schema-check: a rotaryLimit's typo is not reported as itself: $message" >&2
    failures=$((failures + 1))
fi
if [ "$failures" -ne 0 ]; then
    echo "schema-check: FAILED: $failures disagreements" >&2
    exit 1
fi
echo "schema-check: $count bad files, each rejected by the schema and by chipmunk-sim"
