#!/usr/bin/env bash
# Runs chipmunk-stress (100,000 bodies and shapes created and removed through every
# ownership path, sleeping, debug drawing and the threaded solver among them) under valgrind, and fails unless 0 bytes are "definitely lost" and
# valgrind saw no memory errors (use after free, double free, invalid reads).
#   scripts/leaks.sh [OBJECTS]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
need_chipmunk  # chipmunk-stress needs no SQLite and no Cairo: only the engine
need_package valgrind valgrind
need_package objcopy binutils

objects="${1:-100000}"
swift_build --product chipmunk-stress
log="$(mktemp)"
# Valgrind 3.19 cannot read the DWARF 5 debug info clang writes (CChipmunkRuntime's C++):
# it runs a copy with the debug info stripped; reports keep the symbol names.
binary="$(mktemp)"
trap 'rm -f "$log" "$binary"' EXIT
objcopy --strip-debug "$(swift_bin_path)/chipmunk-stress" "$binary"

echo "valgrind --leak-check=full $binary $objects"
valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 \
    "$binary" "$objects" 2>"$log" || status=$?
grep -E "created|still in the slabs|ERROR SUMMARY|definitely lost:|indirectly lost:|possibly lost:|still reachable:|All heap blocks" "$log" || true
if [ "${status:-0}" -ne 0 ] && [ "${status:-0}" -ne 99 ]; then
    echo "leaks.sh: the stress run failed (exit $status); valgrind's log:" >&2
    tail -40 "$log" >&2
    exit 1
fi
lost="$(sed -nE 's/.*definitely lost: ([0-9,]+) bytes.*/\1/p' "$log" | tr -d ,)"
if grep -q "All heap blocks were freed" "$log"; then lost=0; fi
if [ -z "$lost" ] || [ "$lost" != "0" ]; then
    echo "leaks.sh: FAILED: ${lost:-unknown} bytes definitely lost" >&2
    grep -A12 "definitely lost in" "$log" | head -60 >&2 || true
    exit 1
fi
errors="$(sed -nE 's/.*ERROR SUMMARY: ([0-9,]+) errors.*/\1/p' "$log" | tr -d ,)"
if [ "${errors:-unknown}" != "0" ]; then
    echo "leaks.sh: FAILED: valgrind reported ${errors:-unknown} memory errors" >&2
    grep -B2 -A14 -E "Invalid (read|write|free)" "$log" | head -60 >&2 || true
    exit 1
fi
echo "leaks.sh: 0 bytes definitely lost, 0 memory errors"
