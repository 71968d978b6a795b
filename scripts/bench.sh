#!/usr/bin/env bash
# Benchmarks the Swift binding against the raw C engine and pymunk, side by side, and
# writes this CPU family's section of BENCHMARKS.md: time per step, growth with the size
# of the world, cost per body read and per callback, heap allocations (package-benchmark),
# parallel scaling and callgrind instruction counts. The benchmarks are the nested
# package in Benchmarks/; this script runs from the repository root.
#   scripts/bench.sh           full run (about 13 minutes on 2 cores)
#   scripts/bench.sh --quick   fewer steps and repeats (under 4 minutes)
# Installs libchipmunk-dev, valgrind and pymunk (from PyPI) if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
need_chipmunk
need_sqlite
need_cairo
need_package valgrind valgrind
need_package objcopy binutils
command -v python3 >/dev/null || { echo "bench.sh needs python3" >&2; exit 1; }
if ! python3 -c "import pymunk" 2>/dev/null; then
    echo "Installing pymunk 7.3.1 from PyPI ..."
    python3 -m pip install -q "pymunk==7.3.1"
fi
case "${1:-}" in
    "" | --quick) ;;
    *) echo "usage: scripts/bench.sh [--quick]" >&2; exit 64 ;;
esac

echo "Building the benchmarks (Benchmarks/, release) ..."
export CONFIGURATION=release
swift_build --package-path Benchmarks --product chipmunk-bench
swift_build --package-path Benchmarks --product chipmunk-bench-c
bin="$(swift build -c release --package-path Benchmarks --show-bin-path)"

echo "Counting allocations with package-benchmark ..."
allocations="$(mktemp)"
trap 'rm -f "$allocations"' EXIT
(cd Benchmarks && swift package benchmark --no-progress --format markdown) >"$allocations" 2>/dev/null || {
    echo "bench.sh: swift package benchmark failed; its output:" >&2
    (cd Benchmarks && swift package benchmark --no-progress) >&2 || true
    exit 1
}

python3 scripts/bench/run.py --bin "$bin" --allocations "$allocations" \
    --command "scripts/bench.sh${1:+ $1}" ${1:+"$1"}
