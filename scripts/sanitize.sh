#!/usr/bin/env bash
# Runs the library suites under AddressSanitizer with LeakSanitizer on, in a release build
# (-O, -enable-testing for @testable), and the suites that run threads under
# ThreadSanitizer (TSAN_SUITES below) in a debug build. Both build the nested package
# Sanitizers/, whose test targets are the library suites of Tests/ (Sanitizers/Tests is a
# link to it) over the binding and its libraries without the command-line tool, the live
# server or the benchmarks; each in a build folder of its own (Sanitizers/.build-asan-fuzz,
# Sanitizers/.build-tsan). ASan's build is the one fuzz.sh runs its harnesses from (lib.sh,
# ASAN_ARGS: it also carries libFuzzer's coverage); TSan's makes the suites alone. With
# both sanitizers, the two builds run side by side.
#   scripts/sanitize.sh [address|thread]   (both by default)
#   scripts/sanitize.sh --build-only [address|thread]   (the builds alone: test.sh --full
#   runs them beside lighter steps, then this script and fuzz.sh, whose builds are then done)
# Leak suppressions, each with its reason, are in scripts/lsan.supp: one in XCTest's
# XCTWaiter (swift-snapshot-testing), and one in Foundation.Process.run, in the suites that
# start a program; none in the binding or the engine.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
need_build_deps
need_swift

# Swift's backtracer would take the sanitizers' signals; the sanitizers report instead.
export SWIFT_BACKTRACE=enable=no

# ASan runs every suite of Sanitizers/ built with -O: 577 tests in about 4 minutes, where
# a debug build's run took 15. So it is also where PreconditionTests and
# AcceptedValueTests read every stop's message from an optimised binding, which prints a
# failed `precondition`'s message only in debug builds (the package stops with fatalError).
# The CLI's suites (ChipmunkSimTests) are not in Sanitizers/: they test the tool's argument
# parsing and file handling, Swift without unsafe code, over libraries whose own suites run
# here, and the fuzzers run every reader under ASan.
# TSan runs the suites whose code runs threads: spaces stepped in parallel and the slabs
# they share, the threaded solver, and the batch layer's sweeps on worker threads with
# their results database. The rest is single-threaded and took TSan ten minutes of CI's
# forty to find nothing ASan would not. The CLI's sweep suites ran under TSan until the
# tool left this build: the only code of its own they ran on workers is the progress
# reporter, a `Locked` value whose Sendable checks the compiler makes.
TSAN_SUITES='ParallelSpacesTests|StructSlabTests|BodyAndShapeTests|ChipmunkBatchTests'

TSAN_ARGS=(--package-path Sanitizers -c debug --sanitize=thread --scratch-path Sanitizers/.build-tsan)

# args SANITIZER: the build's arguments (ASan's from lib.sh, shared with fuzz.sh).
args() { if [ "$1" = "address" ]; then echo "${ASAN_ARGS[@]}"; else echo "${TSAN_ARGS[@]}"; fi; }

# build SANITIZER LOG: builds Sanitizers/ with its tests under SANITIZER, output to LOG:
# ASan's build makes everything (the suites and the harnesses), TSan's the suites' product.
build() {
    local sanitizer="$1" log="$2" what=(--build-tests)
    [ "$sanitizer" = "thread" ] && what=(--product SwiftChipmunkSanitizersPackageTests)
    # shellcheck disable=SC2046 # the arguments are words without spaces
    swiftpm build $(args "$sanitizer") "${what[@]}" >"$log" 2>&1
}

# test_under SANITIZER: runs Sanitizers/' suites (TSan: TSAN_SUITES) built under SANITIZER.
test_under() {
    local sanitizer="$1" log status=0 filter=()
    [ "$sanitizer" = "thread" ] && filter=(--filter "$TSAN_SUITES")
    echo "== swift test --sanitize=$sanitizer"
    log="$(mktemp)"
    # shellcheck disable=SC2046
    ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0" \
        swift test $(args "$sanitizer") --skip-build --disable-xctest "${filter[@]}" >"$log" 2>&1 ||
        status=$?
    grep -E "Test run with|✘" "$log" || true
    if [ "$status" -ne 0 ] || grep -qE "ERROR: AddressSanitizer|ERROR: LeakSanitizer|WARNING: ThreadSanitizer" "$log"; then
        grep -A30 -E "ERROR: AddressSanitizer|ERROR: LeakSanitizer|WARNING: ThreadSanitizer" "$log" | head -80 >&2 ||
            tail -40 "$log" >&2
        echo "sanitize.sh: the suite FAILED under $sanitizer (exit $status)" >&2
        rm -f "$log"
        return 1
    fi
    rm -f "$log"
    echo "sanitize.sh: clean under $sanitizer"
}

build_only=0
if [ "${1:-}" = "--build-only" ]; then
    build_only=1
    shift
fi
sanitizers=(${1:-address thread})
for sanitizer in "${sanitizers[@]}"; do
    case "$sanitizer" in
        address | thread) ;;
        *)
            echo "sanitize.sh: unknown sanitizer '$sanitizer' (use address, thread, or nothing for both)" >&2
            exit 64
            ;;
    esac
done

# The builds, side by side: ASan's release build compiles each module whole, on one core
# for most of its time, and TSan's debug build takes the other.
declare -A logs pids
for sanitizer in "${sanitizers[@]}"; do
    echo "== Building Sanitizers/ under --sanitize=$sanitizer: swift build $(args "$sanitizer")"
    logs[$sanitizer]="$(mktemp)"
    build "$sanitizer" "${logs[$sanitizer]}" &
    pids[$sanitizer]=$!
done
built=1
for sanitizer in "${sanitizers[@]}"; do
    status=0
    wait "${pids[$sanitizer]}" || status=$?
    if [ "$status" -ne 0 ]; then
        grep -vE "^\[[0-9]+/[0-9]+\]" "${logs[$sanitizer]}" | tail -60 >&2
        echo "sanitize.sh: the build under $sanitizer FAILED (exit $status)" >&2
        built=0
    fi
    rm -f "${logs[$sanitizer]}"
done
[ "$built" -eq 1 ] || exit 1
[ "$build_only" -eq 1 ] && exit 0

failed=0
for sanitizer in "${sanitizers[@]}"; do
    test_under "$sanitizer" || failed=1
done
exit "$failed"
