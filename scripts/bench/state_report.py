#!/usr/bin/env python3
"""Issue 27's table, for scripts/bench.sh --state: what saving, restoring and copying a
world costs against its step, for every benchmark world and built-in scene
(`chipmunk-bench --state --built-in-scenes`), beside pymunk's `Space.copy()` and pickle on
the benchmark worlds (pymunk_state.py). Prints the section and writes it into
BENCHMARKS.md between its state markers.

usage: state_report.py --bin DIR [--quick]
"""
import argparse
import json
import os
import platform
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BEGIN, END = "<!-- state:begin -->", "<!-- state:end -->"
PYMUNK_WORLDS = ["pyramid20", "pyramid40", "circles1000", "pyramid100"]


def lines(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def cpu():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def synctest_table(runs):
    """The synctest's cost against the plain run, depth 1 and 8, and whether it passed."""
    out = ["", "The synctest (`chipmunk-bench all --synctest --built-in-scenes --depth 1 8`): every frame saved, "
           "stepped and its state hash kept, then rolled back `depth` frames and simulated again, each step's hash "
           "compared; against the plain run of the same frames, each a step and nothing else. Fresh worlds and "
           "scenes, run by turns; medians, milliseconds. A depth-8 synctest steps each frame about 9 times (the "
           "first 7 frames fewer) and hashes every step, so 9× is about its floor; a scene whose steps take "
           "microseconds pays more for the hashing, saving and restoring around them.", "",
           "| world | frames | plain | depth 1 | × plain | depth 8 | × plain | every hash matches |",
           "|---|---:|---:|---:|---:|---:|---:|:---:|"]
    by_scene = {}
    for d in runs:
        by_scene.setdefault(d["scene"], {})[d["depth"]] = d
    for name, depths in by_scene.items():
        one, eight = depths.get(1), depths.get(8)
        if not one or not eight:
            continue
        passed = one["passed"] and eight["passed"]
        verdict = "yes" if passed else "NO: " + (one["failure"] or eight["failure"])
        out.append(f"| {name} | {eight['frames']} | {eight['plain_ms']:.1f} | {one['synctest_ms']:.1f} | "
                   f"{one['ratio']:.1f}× | {eight['synctest_ms']:.1f} | {eight['ratio']:.1f}× | {verdict} |")
    topple = by_scene.get("pyramid-topple", {}).get(8)
    if topple:
        met = "met" if topple["ratio"] <= 10 and topple["passed"] else "NOT met"
        out.append("")
        out.append(f"Issue 27's target, a depth-8 synctest of pyramid-topple at most 10× its plain run: "
                   f"{topple['ratio']:.2f}× ({met}).")
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--allocations", help="package-benchmark's markdown, for the save and restore rows")
    args = parser.parse_args()
    rounds = "50" if args.quick else "300"
    pin = ["taskset", "-c", "1"] if os.cpu_count() and os.cpu_count() > 1 else []
    print("chipmunk-bench --state (every world and built-in scene) ...", file=sys.stderr)
    swift = lines(pin + [os.path.join(args.bin, "chipmunk-bench"), "all", "--state", "--built-in-scenes",
                         "--rounds", rounds])
    print("chipmunk-bench --synctest (every world and built-in scene, depth 1 and 8) ...", file=sys.stderr)
    synctests = lines(pin + [os.path.join(args.bin, "chipmunk-bench"), "all", "--synctest", "--built-in-scenes",
                             "--depth", "1", "8", "--repeat", "1" if args.quick else "3"])
    pymunk = {}
    for world in PYMUNK_WORLDS:
        print(f"pymunk copy and pickle: {world} ...", file=sys.stderr)
        pymunk[world] = lines(pin + [sys.executable, os.path.join(HERE, "pymunk_state.py"), world,
                                     "--rounds", "3" if args.quick else "7"])[0]

    out = [BEGIN, "## Save, restore and copy: rollback state (issue 27)", ""]
    out.append(f"`scripts/bench.sh --state`, release build, one core (`taskset -c 1`), {cpu()}. Each world "
               f"is stepped 300 times, then measured: medians of {rounds} rounds of `save(into:)`, a step and "
               "`restore(_:)` (each round restores, so all start alike; `exact`: every round's step gave the "
               "same state hash), and of a tenth as many of `snapshot()`, reading its bytes back (`Snapshot(bytes:)`, "
               "which decodes and checks them: `read`), `restore(_:)` of what was read into the same space, and "
               "`copy()` (then freeing the copy: `free`). Microseconds; bytes per body are what a `SpaceState` "
               "holds.")
    out.append("")
    out.append("| world | bodies | pairs | step | save | restore | save+restore ≤ step | snapshot | read | snapshot restore "
               "| copy | free | state B/body | snapshot B | exact |")
    out.append("|---|---:|---:|---:|---:|---:|:---:|---:|---:|---:|---:|---:|---:|---:|:---:|")
    for d in swift:
        fits = d["save_us"] + d["restore_us"] <= max(d["step_us"], 5)
        out.append(f"| {d['scene']} | {d['bodies']} | {d['arbiters']} | {d['step_us']:.1f} | {d['save_us']:.1f} | "
                   f"{d['restore_us']:.1f} | {'yes' if fits else 'no'} | {d['snapshot_us']:.0f} | "
                   f"{d['snapshot_read_us']:.0f} | {d['snapshot_restore_us']:.0f} | {d['copy_us']:.0f} | {d['copy_free_us']:.0f} | "
                   f"{d['state_bytes_per_body']:.0f} | "
                   f"{d['snapshot_bytes']} | {'yes' if d['exact'] else 'NO'} |")
    out.append("")
    first = next(iter(pymunk.values()))
    out.append(f"pymunk {first['pymunk']} (its own Chipmunk {first['chipmunk'].split('-')[0]}) on the same worlds, "
               "after the same 300 steps: `Space.copy()`, `pickle.dumps`, `pickle.loads`, microseconds; the ratios "
               "are pymunk's time over ours.")
    out.append("")
    out.append("| world | bodies | pymunk copy | pickle dump | pickle load | pickle B | copy / our copy "
               "| copy / our save+restore |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    by_name = {d["scene"]: d for d in swift}
    for world, p in pymunk.items():
        ours = by_name[world]
        out.append(f"| {world} | {p['bodies']} | {p['copy_us']:.0f} | {p['pickle_dump_us']:.0f} | "
                   f"{p['pickle_load_us']:.0f} | {p['pickle_bytes']} | {p['copy_us'] / ours['copy_us']:.0f}× | "
                   f"{p['copy_us'] / (ours['save_us'] + ours['restore_us']):.0f}× |")
    out.extend(synctest_table(synctests))
    if args.allocations:
        sys.path.insert(0, HERE)
        from run import parse_allocations
        counts = parse_allocations(open(args.allocations).read())
        rows = [f"`{name}`: {p50} at the median, {p100} at most, over {samples} samples"
                for name, (p50, p100, samples) in sorted(counts.items())
                if name.startswith("save ") or name.startswith("restore ")]
        if rows:
            out.append("")
            out.append("Heap allocations per save and per restore once warm (package-benchmark's malloc "
                       "interposer, every `malloc` in the process): " + "; ".join(rows) + ".")
    out.append(END)
    section = "\n".join(out)
    print(section)
    path = os.path.join(ROOT, "BENCHMARKS.md")
    text = open(path).read()
    if BEGIN in text and END in text:
        text = text[: text.index(BEGIN)] + section + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    open(path, "w").write(text)
    print(f"wrote the section into {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
