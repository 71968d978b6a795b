# Shared by the scripts: install what is missing, find Swift, build.
# Installs with apt-get, through sudo only when not root.

export PATH="/opt/swift/usr/bin:$PATH"

apt_install() {
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    if [ -z "${APT_UPDATED:-}" ]; then
        $sudo apt-get update -qq
        export APT_UPDATED=1
    fi
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

# need_package COMMAND PACKAGE: installs PACKAGE unless COMMAND is on the PATH.
need_package() {
    command -v "$1" >/dev/null 2>&1 || { echo "Installing $2 ..."; apt_install "$2"; }
}

# Chipmunk 7 from Debian: headers and the shared library.
need_chipmunk() {
    if [ ! -f /usr/include/chipmunk/chipmunk.h ] || ! ls /usr/lib/*/libchipmunk.so >/dev/null 2>&1; then
        echo "Installing libchipmunk-dev ..."
        apt_install libchipmunk-dev
    fi
}

# SQLite from Debian, for the sweep results database (GRDB builds against it).
need_sqlite() {
    if [ ! -f /usr/include/sqlite3.h ]; then
        echo "Installing libsqlite3-dev ..."
        apt_install libsqlite3-dev
    fi
}

# Cairo from Debian, for PNG frames (chipmunk-sim render --format png), and zlib, which
# deflates the replay player's trajectories (chipmunk-sim run --format html).
need_cairo() {
    if [ ! -f /usr/include/cairo/cairo.h ] || [ ! -f /usr/include/zlib.h ]; then
        echo "Installing libcairo2-dev and zlib1g-dev ..."
        apt_install libcairo2-dev zlib1g-dev pkg-config
    fi
}

# need_build_deps: what building the whole package needs, the one prelude of the scripts
# that build it: Chipmunk, SQLite (GRDB), Cairo and zlib (ChipmunkPictures).
need_build_deps() {
    need_chipmunk
    need_sqlite
    need_cairo
}

# Headless Chromium from Debian, which the tests open the replay player and SVG frames in.
need_chromium() {
    if ! command -v chromium-headless-shell >/dev/null 2>&1 && ! command -v chromium >/dev/null 2>&1; then
        echo "Installing chromium-headless-shell ..."
        apt_install chromium-headless-shell fonts-dejavu-core
    fi
}

# Debian's Chromium and Playwright for Python (PyPI), which drive the live page as a person
# would (Tests/Live): drags, taps, device orientation, downloads.
need_playwright() {
    if ! command -v chromium >/dev/null 2>&1; then
        echo "Installing chromium ..."
        apt_install chromium fonts-dejavu-core
    fi
    if ! python3 -c "import playwright" >/dev/null 2>&1; then
        echo "Installing playwright (pip) ..."
        pip_install playwright
    fi
}

# tmux from Debian, in which the tests drive `chipmunk-sim play` as a person would.
need_tmux() {
    need_package tmux tmux
}

# pip_install PACKAGE...: from PyPI, quietly (root's pip warning too), into a Python that
# marks itself externally managed only when it must.
pip_install() {
    export PIP_ROOT_USER_ACTION=ignore
    python3 -m pip install -q "$@" || python3 -m pip install -q --break-system-packages "$@"
}

# matplotlib from PyPI, which draws sweep charts (chipmunk-sim results --chart).
need_matplotlib() {
    if ! python3 -c "import matplotlib" >/dev/null 2>&1; then
        echo "Installing matplotlib (pip) ..."
        pip_install matplotlib
    fi
}

need_swift() {
    command -v swift >/dev/null 2>&1 || {
        echo "Swift was not found on the PATH or in /opt/swift; install Swift 6 first." >&2
        exit 1
    }
}

# swiftpm ARGS...: `swift ARGS`, run again (three runs at most) when SwiftPM itself is
# killed by a signal. SwiftPM has crashed here on sound input (a segmentation fault in
# libdispatch, exit 139, before any compiler ran; in a build and in the documentation
# plugin's host): a crash of the toolchain is not a finding about the code. A compiler's
# error exits with 1 and fails at once. Only for builds: a test run killed by a signal is
# a finding.
swiftpm() {
    local status attempt
    for attempt in 1 2 3; do
        status=0
        swift "$@" || status=$?
        ((status > 128)) || return "$status"
        echo "swift $1 was killed by signal $((status - 128)) (exit $status) on run $attempt of 3" >&2
    done
    return "$status"
}

# swift_build ARGS...: a build in the given configuration (CONFIGURATION, default debug).
swift_build() {
    need_swift
    local log status=0
    log="$(mktemp)"
    swiftpm build -c "${CONFIGURATION:-debug}" "$@" >"$log" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then
        grep -vE "^\[[0-9]+/[0-9]+\]" "$log" >&2
        rm -f "$log"
        echo "swift build failed (exit $status)" >&2
        return "$status"
    fi
    rm -f "$log"
}

# The instrumented release build of the nested package Sanitizers/, which sanitize.sh
# (with --build-tests: the ASan suites) and fuzz.sh (the harnesses) share: AddressSanitizer,
# and libFuzzer's coverage (what -sanitize=fuzzer adds: edges, comparisons, indirect calls,
# and on Linux the stack's depth, which swiftc takes only as LLVM's option) in every Swift
# module and in the C runtime target, so that the suites' build also makes
# the fuzzers; only the harnesses link libFuzzer (Sanitizers/Package.swift). The suites'
# runner calls ASan's own no-op coverage hooks. -enable-testing: @testable imports (the
# suites, and the reader harness, which reaches ChipmunkBatch's package-level API). lld:
# gold fails on the instrumented debug info.
# The folder's name is the flags': Swift keeps an object file whose IR before LLVM's passes
# is unchanged, and coverage is added by those passes, so a build folder made without it
# (.build-asan-release, before the fuzzers joined) would keep uninstrumented objects.
ASAN_SCRATCH="Sanitizers/.build-asan-fuzz"
ASAN_ARGS=(--package-path Sanitizers -c release --sanitize=address --scratch-path "$ASAN_SCRATCH"
    -Xswiftc -enable-testing -Xswiftc -use-ld=lld
    -Xswiftc -sanitize-coverage=edge,indirect-calls,trace-cmp,inline-8bit-counters,pc-table
    -Xswiftc -Xllvm -Xswiftc -sanitizer-coverage-stack-depth
    -Xcc -fsanitize-coverage=edge,indirect-calls,trace-cmp,inline-8bit-counters,pc-table,stack-depth)

swift_bin_path() {
    swift build -c "${CONFIGURATION:-debug}" --show-bin-path
}
