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
reject() {  # reject SCHEMA FILE COMMAND...: both must refuse FILE
    local schema="$1" file="$2"
    shift 2
    if check-jsonschema --schemafile "$schema" "$file" >/dev/null 2>&1; then
        echo "schema-check: the schema accepts $file" >&2
        failures=$((failures + 1))
    fi
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
    reject schemas/scene.schema.json "$file" "$sim" run "$file" --steps 1 --output /dev/null
    count=$((count + 1))
done
for file in Tests/Schemas/bad-sweeps/*.json; do
    reject schemas/sweep.schema.json "$file" "$sim" sweep --sweep "$file" --db "$tmp/$(basename "$file").sqlite"
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
