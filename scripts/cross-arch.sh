#!/usr/bin/env bash
# Measures how Debian's arm64 build of Chipmunk 7.0.3 differs from its amd64 build: counts
# the fused multiply-adds in each libchipmunk.so.7, steps the raw-C scenes and benchmark
# worlds with each (the arm64 programs under qemu-user), and prints a Markdown table: the
# first step whose state differs in bits, and how far apart the bodies are after 10, 100
# and 1,000 steps. docs/determinism.md ("Other machines: arm64") holds a measured table.
# Not part of scripts/test.sh: it installs arm64 packages and takes a few minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

usage() {
    cat <<'EOF'
usage: scripts/cross-arch.sh [--steps N] [--worlds LIST] [--out DIR]

Runs on an amd64 (x86_64) Debian machine. Adds the arm64 architecture to dpkg and
installs qemu-user, gcc-aarch64-linux-gnu and libchipmunk-dev:arm64 (apt-get, through
sudo when not root) unless they are there, then:
  1. counts fused multiply-add instructions in both architectures' libchipmunk.so.7.0.3;
  2. builds the raw-C programs for both (chipmunk-reference from Sources/, and
     scripts/cross-arch/trajectory.c, which steps the Benchmarks/ worlds and tumble),
     with -ffp-contract=off so that the programs' own arithmetic is the same;
  3. runs each scene natively and under qemu-aarch64, compares every step, and prints a
     Markdown table (also written to DIR/table.md).

  --steps N      steps per scene (default 1000). pyramid100 and jointgrid50 take at
                 most 200, their benchmark length: pyramid100 needs about 1.5 minutes
                 for them under qemu, and after about 200 steps jointgrid50's grid
                 folds up and each step takes tens of times as long (here natively
                 4 ms a step for the first 200, 0.1 to 0.3 s a step from 200 to 500)
  --worlds LIST  comma-separated scenes (default: crate,crates,crates-tilt,tumble,
                 pyramid20,pyramid40,pyramid100,circles1000,jointgrid50)
  --out DIR      where binaries and runs go (default .build/cross-arch)
  -h, --help     this text
EOF
}

steps=1000
worlds="crate,crates,crates-tilt,tumble,pyramid20,pyramid40,pyramid100,circles1000,jointgrid50"
out=".build/cross-arch"
while [ $# -gt 0 ]; do
    case "$1" in
        --steps) [ $# -ge 2 ] || { echo "cross-arch.sh: --steps needs a value" >&2; exit 64; }; steps="$2"; shift 2 ;;
        --worlds) [ $# -ge 2 ] || { echo "cross-arch.sh: --worlds needs a value" >&2; exit 64; }; worlds="$2"; shift 2 ;;
        --out) [ $# -ge 2 ] || { echo "cross-arch.sh: --out needs a value" >&2; exit 64; }; out="$2"; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        *) echo "cross-arch.sh: unknown argument '$1'" >&2; usage >&2; exit 64 ;;
    esac
done
case "$steps" in '' | *[!0-9]* | 0) echo "cross-arch.sh: --steps must be a positive whole number (got '$steps')" >&2; exit 64 ;; esac
IFS=, read -r -a scenes <<<"$worlds"
[ ${#scenes[@]} -gt 0 ] || { echo "cross-arch.sh: --worlds names no scene" >&2; exit 64; }
for scene in "${scenes[@]}"; do
    case "$scene" in
        crate | crates | crates-tilt | tumble | pyramid20 | pyramid40 | pyramid100 | circles1000 | jointgrid50) ;;
        *) echo "cross-arch.sh: unknown scene '$scene' (known: crate crates crates-tilt tumble pyramid20 pyramid40 pyramid100 circles1000 jointgrid50)" >&2; exit 64 ;;
    esac
done

if [ "$(dpkg --print-architecture 2>/dev/null || true)" != "amd64" ]; then
    echo "cross-arch.sh: this runs on an amd64 Debian machine (dpkg says '$(dpkg --print-architecture 2>/dev/null || echo none)')" >&2
    exit 1
fi

# --- 1. Packages ------------------------------------------------------------------------
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    echo "Adding the arm64 architecture to dpkg ..."
    $sudo dpkg --add-architecture arm64
    unset APT_UPDATED  # the arm64 package lists are needed now
fi
wanted=(gcc binutils python3 libchipmunk-dev:amd64 libchipmunk-dev:arm64 gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu)
missing=()
for package in "${wanted[@]}"; do installed "$package" || missing+=("$package"); done
if ! command -v qemu-aarch64 >/dev/null 2>&1 && ! command -v qemu-aarch64-static >/dev/null 2>&1; then
    missing+=(qemu-user)
fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing ${missing[*]} ..."
    if ! apt_install "${missing[@]}"; then
        echo "cross-arch.sh: apt-get could not install ${missing[*]}." >&2
        echo "  Does your mirror carry arm64 packages ('apt-get update' must fetch '... arm64 Packages')?" >&2
        echo "  qemu-user may be called qemu-user-static on other releases." >&2
        exit 1
    fi
fi
qemu="$(command -v qemu-aarch64 || command -v qemu-aarch64-static)"
amd64_lib=/usr/lib/x86_64-linux-gnu/libchipmunk.so.7.0.3
arm64_lib=/usr/lib/aarch64-linux-gnu/libchipmunk.so.7.0.3
for lib in "$amd64_lib" "$arm64_lib"; do
    [ -f "$lib" ] || { echo "cross-arch.sh: $lib is missing; is libchipmunk7 7.0.3 installed for both architectures?" >&2; exit 1; }
done

# --- 2. Fused multiply-adds in each library ---------------------------------------------
echo "Counting fused multiply-adds ..."
amd64_fma="$(objdump -d --no-show-raw-insn "$amd64_lib" | awk -F'\t' '{split($2, w, " "); print w[1]}' \
    | grep -cE '^vfn?m(add|sub)' || true)"
arm64_mnemonics="$(aarch64-linux-gnu-objdump -d --no-show-raw-insn "$arm64_lib" | awk -F'\t' '{split($2, w, " "); print w[1]}')"
arm64_fma="$(grep -cE '^fn?m(add|sub)$' <<<"$arm64_mnemonics" || true)"
arm64_fma_kinds="$(grep -E '^fn?m(add|sub)$' <<<"$arm64_mnemonics" | sort | uniq -c | awk '{printf "%s%s %s", sep, $1, $2; sep=", "}')"
arm64_vector="$(grep -cE '^fml[as]$' <<<"$arm64_mnemonics" || true)"

# --- 3. Build -------------------------------------------------------------------------
mkdir -p "$out"
echo "Building the raw-C programs for amd64 and arm64 in $out ..."
flags=(-O2 -ffp-contract=off -Wall -I Benchmarks/Sources/ChipmunkBenchWorlds/include -I Sources/CChipmunk)
for arch in amd64 arm64; do
    cc=gcc
    [ "$arch" = arm64 ] && cc=aarch64-linux-gnu-gcc
    "$cc" "${flags[@]}" Sources/chipmunk-reference/main.c -o "$out/reference-$arch" -lchipmunk -lm
    "$cc" "${flags[@]}" scripts/cross-arch/trajectory.c -o "$out/trajectory-$arch" -lchipmunk -lm
done
if ! "$qemu" "$out/trajectory-arm64" tumble 1 >/dev/null; then
    echo "cross-arch.sh: $qemu cannot run the arm64 program; is libc6:arm64 installed?" >&2
    exit 1
fi

# --- 4. Run and compare -----------------------------------------------------------------
# run ARCH SCENE STEPS CHECKPOINTS FILE: one run, natively or under qemu.
run() {
    local arch="$1" scene="$2" n="$3" checkpoints="$4" file="$5" launcher=()
    [ "$arch" = arm64 ] && launcher=("$qemu")
    case "$scene" in
        crate | crates | crates-tilt) "${launcher[@]}" "$out/reference-$arch" "$scene" "$n" 1 >"$file" ;;
        *) "${launcher[@]}" "$out/trajectory-$arch" "$scene" "$n" "$checkpoints" >"$file" ;;
    esac
}

rows=()
for scene in "${scenes[@]}"; do
    n="$steps"
    case "$scene" in
        crate | crates | crates-tilt) bodies=$([ "$scene" = crate ] && echo 1 || echo 5); dt=1/120 ;;
        tumble) bodies=29; dt=1/180 ;;
        pyramid20) bodies=210; dt=1/120 ;;
        pyramid40) bodies=820; dt=1/120 ;;
        pyramid100) bodies=5050; dt=1/60; [ "$n" -gt 200 ] && n=200 ;;
        circles1000) bodies=1000; dt=1/60 ;;
        jointgrid50) bodies=2500; dt=1/60; [ "$n" -gt 200 ] && n=200 ;;
        *) echo "cross-arch.sh: unknown scene '$scene'" >&2; exit 64 ;;
    esac
    checkpoints="0,1,2,3,4,5,6,7,8,9,10,100,1000,$n"
    echo "Running $scene, $n steps, on amd64 and under qemu on arm64 ..."
    run amd64 "$scene" "$n" "$checkpoints" "$out/$scene-amd64.txt"
    start=$(date +%s.%N)
    run arm64 "$scene" "$n" "$checkpoints" "$out/$scene-arm64.txt"
    seconds=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { d = e - s; if (d < 1) print "<1"; else printf "%.0f", d }')
    first="$(python3 scripts/cross-arch/compare.py first "$out/$scene-amd64.txt" "$out/$scene-arm64.txt")"
    more=()
    if [ "$first" -gt 10 ] && ! [[ ",$checkpoints," == *",$first,"* ]] && [[ "$scene" != crate* ]]; then
        echo "  first difference at step $first; running again to that step for its size ..."
        run amd64 "$scene" "$first" "$first" "$out/$scene-amd64-first.txt"
        run arm64 "$scene" "$first" "$first" "$out/$scene-arm64-first.txt"
        more=("$out/$scene-amd64-first.txt" "$out/$scene-arm64-first.txt")
    fi
    rows+=("$(python3 scripts/cross-arch/compare.py row "$scene" "$bodies" "$dt" "$n" "$seconds" \
        "$out/$scene-amd64.txt" "$out/$scene-arm64.txt" "${more[@]}")")
done

# --- 5. The table -----------------------------------------------------------------------
version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo "not installed"; }
{
    cpu="$(lscpu | sed -nE 's/^Model name:[[:space:]]+//p' | head -1)"
    family="$(lscpu | sed -nE 's/^CPU family:[[:space:]]+//p' | head -1)"
    model="$(lscpu | sed -nE 's/^Model:[[:space:]]+//p' | head -1)"
    hypervisor="$(lscpu | sed -nE 's/^Hypervisor vendor:[[:space:]]+//p' | head -1)"
    echo "Measured $(date -u +%Y-%m-%d) on $cpu (family $family, model $model${hypervisor:+, a $hypervisor guest}," \
        "$(nproc) CPUs, load average $(cut -d' ' -f1 /proc/loadavg) at the end), $($qemu --version | head -1)."
    echo "Packages: libchipmunk7 $(version libchipmunk7:amd64) (amd64) and $(version libchipmunk7:arm64) (arm64)," \
        "libc6 $(version libc6:amd64) (amd64) and $(version libc6:arm64) (arm64)," \
        "gcc $(version gcc-12) and gcc-aarch64-linux-gnu $(version gcc-aarch64-linux-gnu)."
    echo
    echo "Fused multiply-adds in libchipmunk.so.7.0.3: amd64 $amd64_fma; arm64 $arm64_fma scalar" \
        "($arm64_fma_kinds) and $arm64_vector vector (fmla/fmls)."
    echo
    echo "| scene | dynamic bodies | dt | steps | first step that differs in bits | largest difference at that step | steps that differ | largest distance between a body's positions after 10 steps | after 100 | after 1,000 | seconds under qemu |"
    echo "|---|---:|---|---:|---:|---|---:|---:|---:|---:|---:|"
    printf '%s\n' "${rows[@]}"
} | tee "$out/table.md"
echo "cross-arch.sh: the table is in $out/table.md"
