#!/usr/bin/env bash
# Fuzzes what the tools read, with libFuzzer: scene files (loaded, built, stepped 240 times,
# snapshotted and restored), snapshot files (mutated, given a valid checksum as an
# attacker can, restored, stepped, drawn), and the other readers (golden files verified,
# input recordings replayed, sweep files planned and run, results databases exported). The
# harnesses (Fuzz/Sources) are executables of the nested package Sanitizers/, built by
# its ASan release build, which carries libFuzzer's coverage in every module, the binding's
# C runtime included (lib.sh, ASAN_ARGS; sanitize.sh runs the suites from the same build);
# then each runs over its checked-in seeds
# (Fuzz/corpus, Fuzz/corpus-snapshots, Fuzz/corpus-readers: each reader seed's first byte
# names its reader, 0 golden, 1 recording, 2 sweep, 3 database).
#   scripts/fuzz.sh [RUNS] [scenes|snapshots|readers]   (default 1,000,000 inputs each, every
#   harness, the three side by side)
#   scripts/fuzz.sh --build-only   (the harnesses' build alone: test.sh runs it beside
#   single-core steps, then the fuzz run, whose build is then done)
# The runs start from a fixed seed (FUZZ_SEED, default 1), so that a bounded run in the
# tests is the same run each time for the same code; FUZZ_SEED=0 lets libFuzzer pick one,
# for long runs that look for new findings. Fuzz/open-findings/ holds inputs still open.
# A crash, a trap or the engine's abort stops the run and leaves the input in
# Fuzz/findings/, with the command that replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
need_build_deps
need_swift

build_only=0
if [ "${1:-}" = "--build-only" ]; then
    build_only=1
    shift
fi
runs="${1:-1000000}"
case "$runs" in ''|*[!0-9]*) echo "fuzz.sh: RUNS must be a whole number (got '$runs')" >&2; exit 64 ;; esac

echo "Building the fuzzers: swift build ${ASAN_ARGS[*]}"
log="$(mktemp)"
if ! swiftpm build "${ASAN_ARGS[@]}" >"$log" 2>&1; then
    grep -vE "^\[[0-9]+/[0-9]+\]" "$log" >&2
    echo "fuzz.sh: the build FAILED (if SwiftPM missed a file added since $ASAN_SCRATCH was made, remove that folder and run again)" >&2
    rm -f "$log"
    exit 1
fi
rm -f "$log"
[ "$build_only" -eq 1 ] && exit 0

# fuzz HARNESS SEEDS MAX_LEN: runs one harness over a copy of its seeds.
fuzz() {
    local harness="$1" seeds="$2" max_len="$3" work status=0 start elapsed
    local fuzzer="$ASAN_SCRATCH/release/$harness"
    work="$(mktemp -d)"
    cp "$seeds"/* "$work/"
    mkdir -p Fuzz/findings
    echo "$harness: fuzzing $runs inputs from $(ls "$seeds" | wc -l) seeds ..."
    start=$(date +%s)
    # Swift's backtracer would take the crash signal before libFuzzer saves the input.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$fuzzer" "$work" -runs="$runs" -seed="${FUZZ_SEED:-1}" \
        -max_len="$max_len" -artifact_prefix=Fuzz/findings/ -print_final_stats=1 >"$work.log" 2>&1 || status=$?
    elapsed=$(( $(date +%s) - start ))
    grep -E "^(#[0-9]+\s+DONE|stat::number_of_executed_units|Done [0-9]+ runs)" "$work.log" || true
    if [ "$status" -ne 0 ]; then
        tail -40 "$work.log" >&2
        echo "fuzz.sh: $harness FAILED after ${elapsed}s; the input is in Fuzz/findings/ (replay: $fuzzer Fuzz/findings/<file>)" >&2
        rm -rf "$work" "$work.log"
        exit 1
    fi
    rm -rf "$work" "$work.log"
    echo "fuzz.sh: $harness: $runs inputs in ${elapsed}s, 0 crashes"
}

# all HARNESS...: runs the harnesses side by side, one process each (the machine has two
# cores; libFuzzer runs one input at a time), and prints each one's lines when it is done,
# in order. A bounded run is the same run however many run beside it: each has its seed
# and counts inputs, not seconds.
all() {
    local dir status=0 harness
    dir="$(mktemp -d)"
    for harness in "$@"; do
        (set -- $harness; fuzz "$@") >"$dir/${harness%% *}.out" 2>&1 &
        echo "$!" >"$dir/${harness%% *}.pid"
    done
    for harness in "$@"; do
        wait "$(cat "$dir/${harness%% *}.pid")" || status=1
        cat "$dir/${harness%% *}.out"
    done
    rm -rf "$dir"
    return "$status"
}

case "${2:-all}" in
    scenes) fuzz SceneFuzzer Fuzz/corpus 4096 ;;
    snapshots) fuzz SnapshotFuzzer Fuzz/corpus-snapshots 65536 ;;
    readers) fuzz ReaderFuzzer Fuzz/corpus-readers 131072 ;;
    all)
        echo "Fuzzing the three harnesses side by side ..."
        all "ReaderFuzzer Fuzz/corpus-readers 131072" "SceneFuzzer Fuzz/corpus 4096" \
            "SnapshotFuzzer Fuzz/corpus-snapshots 65536"
        ;;
    *)
        echo "fuzz.sh: the harness is scenes, snapshots, readers or nothing for all (got '$2')" >&2
        exit 64
        ;;
esac
