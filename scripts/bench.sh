#!/usr/bin/env bash
# Benchmarks the Swift binding against the raw C engine and pymunk, side by side, and
# writes BENCHMARKS.md: time per step, cost per body read and per callback, heap
# allocations, parallel scaling and callgrind instruction counts.
#   scripts/bench.sh           full run (about 6 minutes on 2 cores)
#   scripts/bench.sh --quick   fewer steps and repeats (under 3 minutes)
# Installs libchipmunk-dev, valgrind and pymunk (from PyPI) if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
need_chipmunk
need_package valgrind valgrind
need_package objcopy binutils
command -v python3 >/dev/null || { echo "bench.sh needs python3" >&2; exit 1; }
if ! python3 -c "import pymunk" 2>/dev/null; then
    echo "Installing pymunk 7.3.1 from PyPI ..."
    python3 -m pip install -q "pymunk==7.3.1"
fi

echo "Building release ..."
export CONFIGURATION=release
swift_build --product chipmunk-sim
swift_build --product chipmunk-bench-c
swift_build --product chipmunk-malloc-counter
bin="$(swift_bin_path)"

python3 scripts/bench/run.py --bin "$bin" --counter "$bin/libchipmunk-malloc-counter.so" \
    --command "scripts/bench.sh${1:+ $1}" ${1:+"$1"}
