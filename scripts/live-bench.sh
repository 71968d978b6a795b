#!/usr/bin/env bash
# Measures `chipmunk-sim serve` on loopback: server CPU per frame, frames missed, and
# input-to-frame latency, for crates-tilt, ui-heavy and pyramid-topple with 1 and 4
# WebSocket viewers (scripts/live_bench.py says how each number is taken). Prints a Markdown
# table for BENCHMARKS.md, headed by the CPU and the load.
#   scripts/live-bench.sh [SECONDS]   10 s a run by default (six runs, about 90 s with the build done)
# Installs websockets (PyPI) if missing; builds chipmunk-sim in release mode.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
need_build_deps
python3 -c "import websockets" >/dev/null 2>&1 || { echo "Installing websockets (pip) ..."; pip_install websockets; }
seconds="${1:-10}"
case "$seconds" in '' | *[!0-9.]*) echo "usage: scripts/live-bench.sh [SECONDS]" >&2; exit 64 ;; esac
echo "Building chipmunk-sim (release) ..."
CONFIGURATION=release swift_build --product chipmunk-sim
bin="$(swift build -c release --show-bin-path)/chipmunk-sim"
cpu="$(lscpu | sed -n 's/^Model name: *//p' | head -1)"
echo
echo "CPU: ${cpu:-unknown}, $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg); $seconds s a run, release build"
echo
python3 scripts/live_bench.py "$bin" --seconds "$seconds"
