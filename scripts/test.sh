#!/usr/bin/env bash
# Runs the tests, in two tiers.
#   scripts/test.sh          the Swift Testing suites (library, scenes, dynamics, CLI against
#                            the raw C engine), the live server in headless Chromium, the
#                            JSON Schema check, a sweep on a real single-node Slurm cluster,
#                            the valgrind leak check and a fuzz run of 20,000 inputs a reader:
#                            about 25 minutes on 2 idle cores from a fresh clone, a third of
#                            it building.
#   scripts/test.sh --full   all of that, then the benchmark package's suites (its worlds
#                            against their raw-C twins), the DocC build of every library
#                            (0 warnings), a doc comment on every public declaration
#                            (check-docs.sh), and the suites under ASan+LSan in a release
#                            build (where the exit tests read each stop's message from an
#                            optimised binding) and the threaded ones under TSan. CI
#                            (.ci/run) runs this tier.
# Every step runs even when an earlier one fails; the failures are printed last, alone.
# Installs libchipmunk-dev, libsqlite3-dev, libcairo2-dev, zlib1g-dev, chromium-headless-shell,
# tmux, valgrind, slurm-wlm, munge (apt) and matplotlib, check-jsonschema (pip) if missing.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

full=0
case "${1:-}" in
    "") ;;
    --full) full=1 ;;
    -h | --help)
        sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "test.sh: unknown argument '$1' (use --full, or nothing)" >&2
        exit 64
        ;;
esac

need_build_deps
need_chromium
need_playwright
need_tmux
need_matplotlib
need_swift

failures="$(mktemp)"
trap 'rm -f "$failures"' EXIT
started=$(date +%s)

# step TITLE COMMAND...: runs one step, says how long it took, and records a failure.
step() {
    local title="$1" begun status=0
    shift
    echo "== $title"
    begun=$(date +%s)
    "$@" || status=$?
    if [ "$status" -ne 0 ]; then
        echo "== FAILED (exit $status): $title" >&2
        echo "$title (exit $status)" >>"$failures"
    else
        echo "   done in $(($(date +%s) - begun)) s"
    fi
}

# A build that runs mostly on one core (a release build compiles each module whole) can
# run in the background, beside steps that use one core each:
#   start NAME TITLE COMMAND...   starts it, and keeps its output;
#   finish NAME                   waits for it, prints its output, and records a failure
#                                 as step does.
# The step that needs the build then finds it done.
declare -A background_pid background_log background_title background_begun
start() {
    local name="$1" title="$2"
    shift 2
    echo "== $title: started in the background"
    background_title[$name]="$title"
    background_log[$name]="$(mktemp)"
    background_begun[$name]=$(date +%s)
    "$@" >"${background_log[$name]}" 2>&1 &
    background_pid[$name]=$!
}
finish() {
    local name="$1" status=0 title="${background_title[$1]}" begun="${background_begun[$1]}"
    echo "== $title"
    wait "${background_pid[$name]}" || status=$?
    cat "${background_log[$name]}"
    rm -f "${background_log[$name]}"
    if [ "$status" -ne 0 ]; then
        echo "== FAILED (exit $status): $title" >&2
        echo "$title (exit $status)" >>"$failures"
    else
        echo "   done in $(($(date +%s) - begun)) s, in the background"
    fi
}

# swift test, quiet: a passing run prints its closing line alone (the per-test lines, and
# the parametrized arguments that span several lines, stay in the log); a failing one
# prints every line that is not a start or a pass, and the failing tests are kept for the
# summary.
quiet_test() {
    local log status=0
    log="$(mktemp)"
    swift test --skip-build --disable-xctest "$@" >"$log" 2>&1 || status=$?
    if [ "$status" -eq 0 ]; then
        grep -E "Test run with" "$log" || tail -5 "$log"
    else
        grep -vE "^(◇|✔|↳) " "$log" | tail -200
        grep -E "^✘ Test .*(failed|recorded an issue)" "$log" | sed 's/^/    /' >>"$failures" || true
        grep -E "exited with unexpected signal|Fatal error" "$log" | head -5 | sed 's/^/    /' >>"$failures" || true
    fi
    rm -f "$log"
    return "$status"
}

# The sanitizer builds (the nested package Sanitizers/) leave out the Live trait, the CLI
# and their suites: the server on Hummingbird and SwiftNIO would add about 4 minutes a
# build; the default tier and the browser test run them (sanitize.sh says why).
step "Building (debug) with tests: about 7 minutes on a fresh clone, seconds after that" swift_build --build-tests
# Attachments (a failed golden-file test's comparison page, <scene>.diff.html) are kept in
# test-attachments/ for CI; known-issue.crates.diff.html is always there (a test of the helper).
rm -rf test-attachments && mkdir -p test-attachments
step "swift test: the library, scenes, dynamics, live and CLI suites (about 10 minutes)" quiet_test \
    --attachments-path test-attachments
# The instrumented release build of Sanitizers/ (ASan, with libFuzzer's coverage: lib.sh,
# ASAN_ARGS) runs beside the next steps, which use one core each: the fuzzers alone, or
# with --full the ASan suites too, and TSan's build beside it.
if [ "$full" -eq 1 ]; then
    start instrumented "Building Sanitizers/: the suites and fuzzers under ASan (release) and the suites under TSan (alone about 12 minutes, beside the steps up to the fuzzers' about 25)" \
        bash scripts/sanitize.sh --build-only
else
    start instrumented "Building the fuzzers (Sanitizers/, release under ASan with libFuzzer's coverage; alone about 6 minutes)" \
        bash scripts/fuzz.sh --build-only
fi
step "The live server in headless Chromium: drag, tilt, scrub and branch, two fingers, snap, four viewers and bad messages, the recording replayed (about a minute)" \
    python3 Tests/Live/live_browser_test.py "$(swift build --show-bin-path)/chipmunk-sim" \
    --user-executable "$(swift build --show-bin-path)/live-ramp"
step "JSON Schemas (check-jsonschema) and the bad-file corpus" bash scripts/schema-check.sh
step "A sweep on a single-node Slurm cluster" bash scripts/slurm-sweep.sh
# 20,000 objects: about 200 spaces, each path of chipmunk-stress (its rounds repeat with
# periods up to 50) taken at least four times; a longer run is leaks.sh's default.
step "Leak check (valgrind, 20,000 objects; about 2 minutes)" bash scripts/leaks.sh 20000
if [ "$full" -eq 1 ]; then
    step "Benchmarks/ (a nested package): building with tests (about 3 minutes)" \
        swift_build --package-path Benchmarks --build-tests
    step "swift test --package-path Benchmarks: the worlds against their raw-C twins" \
        quiet_test --package-path Benchmarks
    step "DocC: every library target's documentation, DocC warnings as errors" bash scripts/docs.sh
    step "Doc comments: every public declaration of every library module has one" bash scripts/check-docs.sh
fi
finish instrumented
# 20,000 inputs of each reader from the checked-in seeds and a fixed seed: the readers'
# coverage flattens well before (100,000 each found nothing more in CI's last runs, for
# 8 more minutes); longer runs that look for new findings are scripts/fuzz.sh's default.
step "Fuzzing: 20,000 each of scene files, snapshots and other readers, side by side (about 2 minutes)" bash scripts/fuzz.sh 20000
# ASan's build is a release build (-O): its run is also where the exit tests read each
# stop's message from an optimised binding (sanitize.sh says why).
[ "$full" -eq 1 ] && step "Sanitizers: the library suites under ASan+LSan built with -O (stops' messages in release among them), the threaded ones under TSan (about 4 minutes)" bash scripts/sanitize.sh

elapsed=$(($(date +%s) - started))
if [ -s "$failures" ]; then
    echo
    echo "================ FAILED ================"
    cat "$failures"
    echo "(test.sh$([ "$full" -eq 1 ] && echo " --full") ran ${elapsed} s)"
    exit 1
fi
echo "test.sh$([ "$full" -eq 1 ] && echo " --full"): every step passed in ${elapsed} s"
