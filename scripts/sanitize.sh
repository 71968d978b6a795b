#!/usr/bin/env bash
# Runs the library suites under AddressSanitizer with LeakSanitizer on, in a release build
# (-O, -enable-testing for @testable), then the suites that run threads, the CLI's sweeps
# among them, under ThreadSanitizer (TSAN_SUITES below) in a debug build, each in a build
# folder of its own (.build-asan-release, .build-tsan).
#   scripts/sanitize.sh [address|thread]   (both by default)
# Leak suppressions, each with its reason, are in scripts/lsan.supp: two Foundation
# allocations in the CLI tests' process helper, one in swift-argument-parser and one in
# XCTest's XCTWaiter (swift-snapshot-testing); none in the binding or the engine.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
need_build_deps
need_swift

# Swift's backtracer would take the sanitizers' signals; the sanitizers report instead.
export SWIFT_BACKTRACE=enable=no

# ASan runs every suite but the CLI's (ChipmunkSimTests: 250 CPU s of the tool's argument
# parsing and file handling, Swift without unsafe code, over libraries whose own suites run
# here; the fuzzers run every reader under ASan). It runs them built with -O: 577 tests in
# 245 s where the debug build took 903 s, for a build of 13 minutes instead of 6.5 (on 2
# cores). So it is also where PreconditionTests and AcceptedValueTests read every stop's
# message from an optimised binding, which prints a failed `precondition`'s message only
# in debug builds (the package stops with fatalError; ReleaseStops/ runs those two suites
# alone, without ASan, in 2 minutes).
# TSan runs the suites whose code runs threads: spaces stepped in parallel and the slabs
# they share, the threaded solver, the batch layer, and the CLI's sweeps (on worker
# threads, in the TSan-built chipmunk-sim: its sweep, shard and results-database suites).
# The rest is single-threaded and took TSan ten minutes of CI's forty to find nothing ASan
# would not; so did the CLI's other suites (runs, pictures, diffs, and a fresh build of the
# README's package). Two worlds stepped on two threads sharing the slabs are
# ParallelSpacesTests'; a TSan build of chipmunk-bench --parallel 2 did the same again, for
# about two minutes of CI.
TSAN_SUITES='ParallelSpacesTests|StructSlabTests|BodyAndShapeTests|ChipmunkBatchTests|SweepCommandTests|SweepInputTests|ClusterTests|BadDatabaseTests'

run() {
    local sanitizer="$1" scratch configuration=(-c debug)
    if [ "$sanitizer" = "address" ]; then
        scratch=".build-asan-release"
        configuration=(-c release -Xswiftc -enable-testing)
    fi
    [ "$sanitizer" = "thread" ] && scratch=".build-tsan"
    echo "== Building the tests with --sanitize=$sanitizer (${configuration[*]})"
    # Without the Live trait: the server's packages would double the build (test.sh says why).
    CONFIGURATION="${configuration[1]}" swift_build "${configuration[@]:2}" --build-tests --sanitize="$sanitizer" \
        --scratch-path "$scratch" --disable-default-traits
    echo "== swift test --sanitize=$sanitizer"
    local log status=0 filter=()
    [ "$sanitizer" = "thread" ] && filter=(--filter "$TSAN_SUITES")
    [ "$sanitizer" = "address" ] && filter=(--skip ChipmunkSimTests)
    log="$(mktemp)"
    ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0" \
        swift test --skip-build --disable-xctest "${configuration[@]}" --sanitize="$sanitizer" \
        --scratch-path "$scratch" --disable-default-traits "${filter[@]}" >"$log" 2>&1 || status=$?
    grep -E "Test run with|✘" "$log" || true
    if [ "$status" -ne 0 ] || grep -qE "ERROR: AddressSanitizer|ERROR: LeakSanitizer|WARNING: ThreadSanitizer" "$log"; then
        grep -A30 -E "ERROR: AddressSanitizer|ERROR: LeakSanitizer|WARNING: ThreadSanitizer" "$log" | head -80 >&2 || tail -40 "$log" >&2
        echo "sanitize.sh: the suite FAILED under $sanitizer (exit $status)" >&2
        rm -f "$log"
        exit 1
    fi
    rm -f "$log"
    echo "sanitize.sh: clean under $sanitizer"
}

for sanitizer in ${1:-address thread}; do
    run "$sanitizer"
done
