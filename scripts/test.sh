#!/usr/bin/env bash
# Runs every test: the Swift Testing suites (library, scenes, CLI against the raw C
# engine), the benchmark package's suites (its worlds against their raw-C twins), the
# JSON Schema check, the valgrind leak check, a sweep on a real single-node Slurm cluster, the suites again under
# ASan+LSan and TSan, and 200,000 fuzzed scene files.
# Installs libchipmunk-dev, libsqlite3-dev, libcairo2-dev, zlib1g-dev, chromium-headless-shell,
# tmux, valgrind, slurm-wlm, munge (apt) and matplotlib, check-jsonschema (pip) if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
need_chipmunk
need_sqlite
need_cairo
need_chromium
need_tmux
need_matplotlib
need_swift

echo "== Building (debug) with tests"
swift_build --build-tests
echo "== swift test"
# Per-test "started"/"passed" lines are left out; failures and the closing counts stay.
quiet_test() {
    set +e
    swift test --skip-build --disable-xctest "$@" 2>&1 | awk '/Test run with/ || !(/^[^ ]+ (Test|Suite) .*(started\.|passed after [0-9.]+ seconds\.)$/ || /^◇ Test case passing/ || / started\.$/)'
    local status=${PIPESTATUS[0]}
    set -e
    if [ "$status" -ne 0 ]; then
        echo "swift test $* FAILED (exit $status)" >&2
        exit "$status"
    fi
}
quiet_test

echo "== Benchmarks/ (a nested package): building with tests"
swift_build --package-path Benchmarks --build-tests
echo "== swift test --package-path Benchmarks"
quiet_test --package-path Benchmarks

echo "== JSON Schemas (check-jsonschema) and the bad-file corpus"
bash scripts/schema-check.sh

echo "== A sweep on a single-node Slurm cluster"
bash scripts/slurm-sweep.sh

echo "== Leak check"
bash scripts/leaks.sh

echo "== Sanitizers"
bash scripts/sanitize.sh

echo "== Fuzzing (bounded)"
bash scripts/fuzz.sh 200000
