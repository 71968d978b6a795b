#!/usr/bin/env bash
# Fuzzes the scene loader and the first steps of a scene with libFuzzer: builds the
# harness in Fuzz/ with -sanitize=fuzzer,address over every target (the binding
# included; linked with lld, as gold fails on the instrumented debug info), then runs it
# over the checked-in seeds in Fuzz/corpus.
#   scripts/fuzz.sh [RUNS]        (default 1,000,000 inputs; CI runs 200,000)
# A crash, a trap or the engine's abort stops the run and leaves the input in
# Fuzz/findings/, with the command that replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
need_chipmunk
need_sqlite
need_cairo
need_swift

runs="${1:-1000000}"
case "$runs" in ''|*[!0-9]*) echo "fuzz.sh: RUNS must be a whole number (got '$runs')" >&2; exit 64 ;; esac

echo "Building the fuzzer (release, -sanitize=fuzzer,address) ..."
log="$(mktemp)"
build() { (cd Fuzz && swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld >"$log" 2>&1); }
if ! build; then
    # SwiftPM can miss a source file added to the parent package since Fuzz/.build was
    # made (a path dependency's file list is cached): start that build afresh, once.
    echo "The build failed; retrying from a clean Fuzz/.build ..."
    rm -rf Fuzz/.build
    if ! build; then
        grep -vE "^\[[0-9]+/[0-9]+\]" "$log" >&2
        rm -f "$log"
        exit 1
    fi
fi
rm -f "$log"
fuzzer="Fuzz/.build/release/SceneFuzzer"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp Fuzz/corpus/* "$work/"
mkdir -p Fuzz/findings
echo "Fuzzing $runs inputs from $(ls Fuzz/corpus | wc -l) seeds ..."
start=$(date +%s)
# Swift's backtracer would take the crash signal before libFuzzer saves the input.
status=0
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$fuzzer" "$work" -runs="$runs" \
    -max_len=4096 -artifact_prefix=Fuzz/findings/ -print_final_stats=1 >"$work.log" 2>&1 || status=$?
elapsed=$(( $(date +%s) - start ))
grep -E "^(#[0-9]+\s+DONE|stat::number_of_executed_units|Done [0-9]+ runs)" "$work.log" || true
if [ "$status" -ne 0 ]; then
    tail -40 "$work.log" >&2
    echo "fuzz.sh: FAILED after ${elapsed}s; the input is in Fuzz/findings/ (replay: $fuzzer Fuzz/findings/<file>)" >&2
    rm -f "$work.log"
    exit 1
fi
rm -f "$work.log"
echo "fuzz.sh: $runs inputs in ${elapsed}s, 0 crashes"
