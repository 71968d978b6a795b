#!/usr/bin/env bash
# Benchmarks the Swift binding against the raw C engine and pymunk, side by side, and
# writes this CPU family's section of BENCHMARKS.md: time per step, growth with the size
# of the world, cost per body read and per callback, heap allocations (package-benchmark),
# parallel scaling and callgrind instruction counts. The benchmarks are the nested
# package in Benchmarks/; this script runs from the repository root.
#   scripts/bench.sh           full run (about 13 minutes on 2 cores, the clean build included)
#   scripts/bench.sh --quick   fewer steps and repeats
#   scripts/bench.sh --state   only the save, restore, copy and synctest tables (issue 27; about 10 minutes)
# Installs libchipmunk-dev, valgrind and pymunk (from PyPI) if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
need_build_deps
need_package valgrind valgrind
need_package objcopy binutils
command -v python3 >/dev/null || { echo "bench.sh needs python3" >&2; exit 1; }
if ! python3 -c "import pymunk" 2>/dev/null; then
    echo "Installing pymunk 7.3.1 from PyPI ..."
    pip_install "pymunk==7.3.1"
fi
case "${1:-}" in
    "" | --quick | --state) ;;
    *) echo "usage: scripts/bench.sh [--quick | --state]" >&2; exit 64 ;;
esac

# A fresh release build in folders of its own, every run: an incremental build in
# Benchmarks/.build once linked a chipmunk-bench whose Space initialiser wrote past the
# object its caller had allocated (stale cross-module-optimised code after the library
# changed; valgrind showed the writes, and --against-c runs crashed at exit).
echo "Building the benchmarks (Benchmarks/, release, from scratch) ..."
export CONFIGURATION=release
scratch="$PWD/.build-bench"
alloc_scratch="$PWD/.build-bench-alloc"
rm -rf "$scratch" "$alloc_scratch"
swift_build --package-path Benchmarks --scratch-path "$scratch" --product chipmunk-bench
swift_build --package-path Benchmarks --scratch-path "$scratch" --product chipmunk-bench-c
bin="$(swift build -c release --package-path Benchmarks --scratch-path "$scratch" --show-bin-path)"
if [[ "${1:-}" == --state ]]; then
    # The save and restore benchmarks' allocation counts too, for the table's last line.
    echo "Counting allocations of save and restore with package-benchmark ..."
    allocations="$(mktemp)"
    trap 'rm -f "$allocations"' EXIT
    (cd Benchmarks && swift package --scratch-path "$alloc_scratch" benchmark --no-progress --format markdown \
        --filter '(save|restore) .*') >"$allocations" 2>/dev/null || {
        echo "bench.sh: swift package benchmark failed; run scripts/bench.sh without --state to see its output" >&2
        exit 1
    }
    python3 scripts/bench/state_report.py --bin "$bin" --allocations "$allocations"
    exit 0
fi

# Numbers from a binary that corrupts memory mean nothing: memcheck one short run of every
# mode, Swift and C by turns (valgrind reads a copy without the DWARF 5 debug info).
echo "Checking chipmunk-bench with valgrind memcheck ..."
objcopy --strip-debug "$bin/chipmunk-bench" "$scratch/chipmunk-bench-nodebug"
valgrind -q --error-exitcode=99 "$scratch/chipmunk-bench-nodebug" pyramid20 --against-c --mode all \
    --repeat 1 --steps 20 >/dev/null || { echo "bench.sh: valgrind found memory errors in chipmunk-bench" >&2; exit 1; }

echo "Counting allocations with package-benchmark ..."
allocations="$(mktemp)"
trap 'rm -f "$allocations"' EXIT
(cd Benchmarks && swift package --scratch-path "$alloc_scratch" benchmark --no-progress --format markdown) \
    >"$allocations" 2>/dev/null || {
    echo "bench.sh: swift package benchmark failed; its output:" >&2
    (cd Benchmarks && swift package --scratch-path "$alloc_scratch" benchmark --no-progress) >&2 || true
    exit 1
}

python3 scripts/bench/run.py --bin "$bin" --allocations "$allocations" \
    --command "scripts/bench.sh${1:+ $1}" ${1:+"$1"}
python3 scripts/bench/state_report.py --bin "$bin" --allocations "$allocations" ${1:+"$1"}
