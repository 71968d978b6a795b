#!/usr/bin/env python3
"""Runs the Swift binding, the raw C engine and pymunk side by side on the benchmark
worlds, and writes BENCHMARKS.md. Called by scripts/bench.sh, which builds and installs
what this needs; see there for usage.

Runs are interleaved (each repeat runs every world, mode and implementation once, in a
rotating order) and each figure is the median of the repeats, because the machines are
shared and noisy. Instruction counts from callgrind are exact, and are the figure to
trust for Swift against C.
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time

SCENES = ["pyramid20", "pyramid40", "pyramid100", "circles1000", "jointgrid50"]
QUICK_STEPS = {"pyramid20": 200, "pyramid40": 200, "pyramid100": 40, "circles1000": 200, "jointgrid50": 60}
MODES = ["plain", "reads", "callbacks"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def command(impl, bin_dir, scene, mode, steps, extra=()):
    common = ["--mode", mode, "--repeat", "1"] + (["--steps", str(steps)] if steps else []) + list(extra)
    if impl == "swift":
        return [os.path.join(bin_dir, "chipmunk-bench"), scene] + common
    if impl == "paired":
        return [os.path.join(bin_dir, "chipmunk-bench"), scene, "--against-c"] + common
    if impl == "c":
        return [os.path.join(bin_dir, "chipmunk-bench-c"), scene] + common
    return [sys.executable, os.path.join(ROOT, "scripts", "bench", "pymunk_bench.py"), scene] + common


PIN = []


def run_json(cmd, env=None, pin=True):
    """Runs a benchmark; timed runs are pinned to one CPU, the same for every implementation."""
    out = subprocess.run((PIN if pin else []) + cmd, check=True, capture_output=True, text=True, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])


def callgrind(cmd, toggle):
    """Instructions executed inside `toggle`. Valgrind 3.19 cannot read the DWARF 5 debug
    info that the toolchain's clang writes for C targets, so it runs a copy of the binary
    with the debug info stripped; callgrind needs only the symbol table."""
    out_file = "/tmp/chipmunk-bench-callgrind.out"
    stripped = f"/tmp/chipmunk-bench-{os.path.basename(cmd[0])}-nodebug"
    subprocess.run(["objcopy", "--strip-debug", cmd[0], stripped], check=True)
    result = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", f"--toggle-collect={toggle}",
                             stripped] + cmd[1:], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError("callgrind failed:\n" + result.stderr[-2000:])
    for line in result.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1].strip())
    raise RuntimeError("callgrind printed no count:\n" + result.stderr[-2000:])


def machine():
    def read(path, key):
        try:
            for line in open(path):
                if line.startswith(key):
                    return line.split(":", 1)[1].strip() if ":" in line else line.split("=", 1)[1].strip().strip('"')
        except OSError:
            return "unknown"
        return "unknown"
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
    # The native package's version: with Debian's arm64 packages also installed (for
    # scripts/cross-arch.sh) the bare name matches both.
    native = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True).stdout.strip()
    engine = subprocess.run(["dpkg-query", "-W", "-f=${Version}", f"libchipmunk7:{native}"],
                            capture_output=True, text=True).stdout
    import pymunk
    return {
        "cpu": read("/proc/cpuinfo", "model name"), "cores": os.cpu_count(),
        "memory": read("/proc/meminfo", "MemTotal"), "os": read("/etc/os-release", "PRETTY_NAME"),
        "kernel": platform.release(), "swift": swift[0] if swift else "unknown",
        "engine": f"Debian libchipmunk7 {engine}", "pymunk": f"pymunk {pymunk.version} (its own Chipmunk fork {pymunk.chipmunk_version[:12]})",
    }


def parse_allocations(markdown):
    """{benchmark name: (p50, p100)} of the "Malloc (total)" rows of package-benchmark's
    markdown: allocations per sample (one step, or one read of every body)."""
    result, name = {}, None
    for line in markdown.splitlines():
        if line.startswith("### "):
            name = line[4:].strip()
        elif name and line.startswith("| Malloc (total)"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            # Metric, p0, p25, p50, p75, p90, p99, p100, samples
            result[name] = (int(cells[3]), int(cells[7]), int(cells[8]))
    if not result:
        raise RuntimeError("package-benchmark printed no allocation counts")
    return result


def family(cpu):
    """The CPU family a table belongs to: layout effects differ between them."""
    for name in ("AMD", "Intel"):
        if name.lower() in cpu.lower():
            return name
    return "other"


def main():
    parser = argparse.ArgumentParser(description="Swift vs raw C vs pymunk, side by side; writes BENCHMARKS.md.")
    parser.add_argument("--quick", action="store_true", help="fewer steps and repeats: under three minutes")
    parser.add_argument("--bin", required=True, help="the Benchmarks package's release bin folder")
    parser.add_argument("--allocations", required=True,
                        help="package-benchmark's markdown output (swift package benchmark --format markdown)")
    parser.add_argument("--output", default=os.path.join(ROOT, "BENCHMARKS.md"))
    parser.add_argument("--command", default="scripts/bench.sh")
    args = parser.parse_args()
    started = time.time()
    if subprocess.run(["sh", "-c", "command -v taskset"], capture_output=True).returncode == 0:
        PIN[:] = ["taskset", "-c", str((os.cpu_count() or 1) - 1)]
    repeats = 5 if args.quick else 7
    steps_for = (lambda s: QUICK_STEPS[s]) if args.quick else (lambda s: None)
    cases = [(s, m) for s in SCENES for m in MODES] + [("pyramid40", "churn")]
    # Swift and C are stepped by turns in one process (chipmunk-bench --against-c),
    # one step at a time, so that the machine's noise falls on both alike; pymunk runs in
    # its own process, before or after, in a rotating order.
    samples = {}
    for r in range(repeats):
        for i, (scene, mode) in enumerate(cases):
            for impl in (["paired", "pymunk"] if (r + i) % 2 == 0 else ["pymunk", "paired"]):
                line = run_json(command(impl, args.bin, scene, mode, steps_for(scene)))
                if impl == "pymunk":
                    samples.setdefault((scene, mode, "pymunk"), []).append(line)
                    continue
                samples.setdefault((scene, mode, "swift"), []).append(line)
                samples.setdefault((scene, mode, "c"), []).append(dict(
                    line, ms_per_step=line["c_ms_per_step"], hash=line["c_hash"],
                    read_ms_per_step=line.get("c_read_ms_per_step"), callbacks_per_step=line.get("c_callbacks_per_step")))
        print(f"repeat {r + 1}/{repeats} done ({time.time() - started:.0f} s)", file=sys.stderr)

    def med(scene, mode, impl, key="ms_per_step"):
        return statistics.median(x[key] for x in samples[(scene, mode, impl)])

    def best(scene, mode, impl, key="ms_per_step"):
        """The fastest of the repeats: noise on a shared machine only ever adds time."""
        return min(x[key] for x in samples[(scene, mode, impl)])

    def ratio(scene, mode, a, b):
        """Swift/C: the median of the ratios measured by turns in one process; otherwise best of N against best of N."""
        if (a, b) == ("swift", "c"):
            return statistics.median(x["swift_c_ratio"] for x in samples[(scene, mode, "swift")])
        return best(scene, mode, a) / best(scene, mode, b)

    def paired(scene, mode, impl):
        """What `mode` adds to `plain`, best of N each, in ms per step."""
        return best(scene, mode, impl) - best(scene, "plain", impl)

    def first(scene, mode, impl, key):
        return samples[(scene, mode, impl)][0].get(key)

    # Allocations per step, read and callback, from package-benchmark (run by bench.sh).
    allocations = parse_allocations(open(args.allocations).read())

    # Growth: Swift/C against the size of the world, pyramids of 10 to 100 rows at 1/60 s.
    growth_rows = [10, 25, 50, 75, 100] if args.quick else [10, 20, 30, 40, 50, 60, 70, 80, 90, 100]
    growth_steps = 40 if args.quick else 100
    growth = {}
    for r in range(3 if args.quick else 5):
        for rows in (growth_rows if r % 2 == 0 else list(reversed(growth_rows))):
            line = run_json(command("paired", args.bin, f"growth{rows}", "plain", growth_steps))
            growth.setdefault(rows, []).append(line)
    print(f"growth table done ({time.time() - started:.0f} s)", file=sys.stderr)

    # Parallel scaling: P independent worlds at once against one.
    cores = os.cpu_count() or 1
    throughput = {1: [], cores: []}
    for _ in range(repeats):
        for p in (1, cores):
            line = run_json(command("swift", args.bin, "pyramid40", "plain", steps_for("pyramid40"), ["--parallel", str(p)]), pin=False)
            throughput[p].append(line["steps_per_second"])
    scaling = statistics.median(throughput[cores]) / statistics.median(throughput[1])

    # The same for the raw C engine, as a reference for what the machine allows: one
    # process, then `cores` processes at once; each times its own loop.
    c_throughput = {1: [], cores: []}
    c_cmd = command("c", args.bin, "pyramid40", "plain", steps_for("pyramid40"))
    for _ in range(repeats):
        for p in (1, cores):
            procs = [subprocess.Popen(c_cmd, stdout=subprocess.PIPE, text=True) for _ in range(p)]
            lines = [json.loads(proc.communicate()[0].strip()) for proc in procs]
            c_throughput[p].append(sum(1000 / line["ms_per_step"] for line in lines))
    c_scaling = statistics.median(c_throughput[cores]) / statistics.median(c_throughput[1])

    # Instruction counts of the timed loop alone, every mode over the same steps.
    cg_steps = 100 if args.quick else 300
    instructions = {}
    for mode in ["plain", "reads", "callbacks"]:
        steps = cg_steps
        instructions[(mode, "swift")] = callgrind(command("swift", args.bin, "pyramid20", mode, steps), "*benchmarkLoop*")
        instructions[(mode, "c")] = callgrind(command("c", args.bin, "pyramid20", mode, steps), "benchmark_loop")
    # The calls per step over the callgrind run's own steps, for the per-callback count.
    instructions["calls"] = run_json(command("swift", args.bin, "pyramid20", "callbacks", cg_steps))["callbacks_per_step"]

    write_report(args, machine(), cases, samples, med, paired, ratio, first, allocations, (scaling, c_scaling), throughput, cores,
                 instructions, cg_steps, time.time() - started, repeats, growth)
    print(f"wrote {args.output} in {time.time() - started:.0f} s", file=sys.stderr)


def write_report(args, info, cases, samples, med, paired, ratio, first, allocations, scalings, throughput, cores,
                 instructions, cg_steps, elapsed, repeats, growth):
    scaling, c_scaling = scalings
    ns = 1e6  # ms -> ns
    cpu_family = family(info["cpu"])
    lines = []
    w = lines.append
    w(f"<!-- cpu-family: {cpu_family} -->")
    w(f"## {info['cpu']}")
    w("")
    w(f"Made by `{args.command}` on {datetime.date.today().isoformat()} in {elapsed:.0f} s "
      f"({'quick: fewer steps, ' if args.quick else ''}{repeats} interleaved repeats, medians). "
      f"Machine: {info['cpu']}, {info['cores']} cores, {info['memory']} memory; {info['os']}, Linux {info['kernel']}. "
      f"{info['swift']}. Engine: {info['engine']} (a debug build, used by both the Swift and the C runs). {info['pymunk']}.")
    w("")

    plain = [ratio(s, "plain", "swift", "c") for s in SCENES]
    reads = [ratio(s, "reads", "swift", "c") for s in SCENES]
    calls = instructions.get("calls") or 1
    added = (instructions[("callbacks", "swift")] - instructions[("plain", "swift")]) / cg_steps / calls
    added_c = (instructions[("callbacks", "c")] - instructions[("plain", "c")]) / cg_steps / calls
    callback_ratios, read_ratios = [], []
    for scene in SCENES:
        bodies = first(scene, "reads", "swift", "bodies")
        read_ratios.append(med(scene, "reads", "pymunk", "read_ms_per_step") / med(scene, "reads", "swift", "read_ms_per_step"))
        per_step = first(scene, "callbacks", "swift", "callbacks_per_step")
        if per_step:
            cost_s, cost_p = paired(scene, "callbacks", "swift"), paired(scene, "callbacks", "pymunk")
            if cost_s > 0:
                callback_ratios.append(cost_p / cost_s)
    callback_ratio = statistics.median(callback_ratios) if callback_ratios else float("nan")
    swift_steps = {k: v for k, v in allocations.items() if k.startswith("step ") and "(raw C)" not in k}
    alloc_added = [allocations[k][0] - allocations.get(f"{k} (raw C)", (0, 0, 0))[0] for k in swift_steps]
    reads_alloc = allocations.get("read every body pyramid20", (None, None, None))
    growth_ratios = {rows: statistics.median(x["swift_c_ratio"] for x in lines_) for rows, lines_ in growth.items()}

    w("### Targets")
    w("")
    w("| target | measured | met |")
    w("|---|---|:---:|")
    def row(name, value, ok):
        w(f"| {name} | {value} | {'yes' if ok else '**no**'} |")
    row("Swift/C step time, `plain`, every world: ≤ 1.00", ", ".join(f"{r:.3f}" for r in plain) + " (" + ", ".join(SCENES) + ")", max(plain) <= 1.0)
    row("Swift/C, `reads`, every world: ≤ 1.00", ", ".join(f"{r:.3f}" for r in reads), max(reads) <= 1.0)
    row("callgrind, added instructions per collision callback: ≤ 150", f"{added:.0f} (raw C: {added_c:.0f})", added <= 150)
    row("cost per callback, pymunk/Swift (median over worlds): ≥ 20×", f"{callback_ratio:.0f}× ({', '.join(f'{r:.0f}×' for r in callback_ratios)})", callback_ratio >= 20)
    row("cost per body read, pymunk/Swift: ≥ 50×", ", ".join(f"{r:.0f}×" for r in read_ratios), min(read_ratios) >= 50)
    row("heap allocations per step added by Swift (median, package-benchmark): 0", ", ".join(f"{a:g}" for a in alloc_added), all(a <= 0 for a in alloc_added))
    row("heap allocations per read of every body: 0", f"{reads_alloc[1]} at most", reads_alloc[1] == 0)
    row(f"Swift/C flat as the world grows ({min(growth_ratios)} to {max(growth_ratios)} rows)",
        f"{min(growth_ratios.values()):.3f} to {max(growth_ratios.values()):.3f}", max(growth_ratios.values()) <= 1.0)
    row(f"parallel scaling, {cores} worlds on {cores} cores: ≥ 1.9×", f"{scaling:.2f}× (raw C processes: {c_scaling:.2f}×)", scaling >= 1.9)
    w("")

    w("### Time per step")
    w("")
    w("| world | mode | bodies | steps | Swift ms | C ms | pymunk ms | Swift/C | pymunk/Swift | hash Swift = C | hash pymunk = Swift |")
    w("|---|---|---:|---:|---:|---:|---:|---:|---:|:---:|:---:|")
    for scene, mode in cases:
        sw, c, p = med(scene, mode, "swift"), med(scene, mode, "c"), med(scene, mode, "pymunk")
        hs, hc, hp = first(scene, mode, "swift", "hash"), first(scene, mode, "c", "hash"), first(scene, mode, "pymunk", "hash")
        w(f"| {scene} | {mode} | {first(scene, mode, 'swift', 'bodies')} | {first(scene, mode, 'swift', 'steps')} | {sw:.4f} | {c:.4f} | {p:.4f} | "
          f"{ratio(scene, mode, 'swift', 'c'):.3f} | {ratio(scene, mode, 'pymunk', 'swift'):.2f} | {'yes' if hs == hc else 'NO'} | {'yes' if hp == hs else 'no'} |")
    w("")

    w("### Growth: time per step against bodies")
    w("")
    w(f"Pyramids of N rows at 1/60 s (`chipmunk-bench growthN --against-c`), {first_len(growth)} steps, medians over the repeats.")
    w("")
    w("| rows | bodies | Swift ms/step | C ms/step | Swift/C | hash Swift = C |")
    w("|---:|---:|---:|---:|---:|:---:|")
    for rows in sorted(growth):
        runs = growth[rows]
        w(f"| {rows} | {runs[0]['bodies']} | {statistics.median(x['ms_per_step'] for x in runs):.4f} | "
          f"{statistics.median(x['c_ms_per_step'] for x in runs):.4f} | {growth_ratios[rows]:.3f} | "
          f"{'yes' if all(x['hash'] == x['c_hash'] for x in runs) else 'NO'} |")
    w("")

    w("### Cost per body read (`reads` mode)")
    w("")
    w("The read loop timed on its own, divided by bodies; and reads minus plain (best of N each), divided by "
      "bodies × steps, a difference of two noisy totals.")
    w("")
    w("| world | Swift ns/read | C ns/read | pymunk ns/read | pymunk/Swift | Swift (reads − plain) | C (reads − plain) | pymunk (reads − plain) |")
    w("|---|---:|---:|---:|---:|---:|---:|---:|")
    for scene in SCENES:
        bodies = first(scene, "reads", "swift", "bodies")
        direct = {i: med(scene, "reads", i, "read_ms_per_step") * ns / bodies for i in ("swift", "c", "pymunk")}
        diff = {i: paired(scene, "reads", i) * ns / bodies for i in ("swift", "c", "pymunk")}
        w(f"| {scene} | {direct['swift']:.2f} | {direct['c']:.2f} | {direct['pymunk']:.1f} | {direct['pymunk'] / direct['swift']:.0f}× | "
          f"{diff['swift']:.2f} | {diff['c']:.2f} | {diff['pymunk']:.1f} |")
    w("")

    w("### Cost per collision callback (`callbacks` mode)")
    w("")
    w("callbacks minus plain (best of N each), divided by the calls per step (begin and preSolve, counting and "
      "accepting). The callgrind count per callback, below, is exact.")
    w("")
    w("| world | calls/step | Swift ns/call | C ns/call | pymunk ns/call | pymunk/Swift |")
    w("|---|---:|---:|---:|---:|---:|")
    for scene in SCENES:
        per_step = first(scene, "callbacks", "swift", "callbacks_per_step")
        if not per_step:
            w(f"| {scene} | 0 | – | – | – | – |")
            continue
        cost = {i: paired(scene, "callbacks", i) * ns / per_step for i in ("swift", "c", "pymunk")}
        shown = cost["pymunk"] / cost["swift"] if cost["swift"] > 0 else None
        w(f"| {scene} | {per_step:.0f} | {cost['swift']:.1f} | {cost['c']:.1f} | {cost['pymunk']:.1f} | "
          f"{f'{shown:.0f}×' if shown else 'below noise'} |")
    w("")

    w("### Heap allocations (package-benchmark)")
    w("")
    w("`cd Benchmarks && swift package benchmark`: its malloc interposer counts every allocation in the process, "
      "the engine's included. One sample is one step (after 100 warm-up steps), or one read of every body. "
      "The raw-C rows step the C twin of the same world in the same harness. The `step scene ui-…` rows step "
      "the UIKit Dynamics chapter's scenes, and `step animator fields100/400` an animator whose 100 or 400 "
      "items fall under gravity, collide, and feel a radial gravity field and a noise field: every behaviour's "
      "per-item work, every step.")
    w("")
    w("| benchmark | median | largest | samples |")
    w("|---|---:|---:|---:|")
    for name, (p50, p100, count) in sorted(allocations.items()):
        w(f"| {name} | {p50} | {p100} | {count} |")
    w("")

    w("### Parallel scaling (pyramid40, independent worlds, one thread each)")
    w("")
    w(f"`chipmunk-bench pyramid40 --parallel P`: {statistics.median(throughput[1]):.0f} steps/s with P = 1, "
      f"{statistics.median(throughput[cores]):.0f} with P = {cores} (all cores): **{scaling:.2f}×**. "
      f"The raw C engine in {cores} processes at once against one: {c_scaling:.2f}×.")
    w("")

    w("### Instructions (callgrind, the timed loop only, pyramid20)")
    w("")
    w("| mode | steps | Swift | C | Swift/C | added per step |")
    w("|---|---:|---:|---:|---:|---:|")
    for mode in ("plain", "reads", "callbacks"):
        count, c = instructions[(mode, "swift")], instructions[(mode, "c")]
        w(f"| {mode} | {cg_steps} | {count:,} | {c:,} | {count / c:.5f} | {(count - c) / cg_steps:,.0f} |")
    bodies = first("pyramid20", "reads", "swift", "bodies")
    read = (instructions[("reads", "swift")] - instructions[("plain", "swift")]) / cg_steps / bodies
    read_c = (instructions[("reads", "c")] - instructions[("plain", "c")]) / cg_steps / bodies
    w("")
    w(f"Per collision callback: Swift {added:.0f} instructions, C {added_c:.0f}. "
      f"Per body read: Swift {read:.0f}, C {read_c:.0f} (C calls the getters through the PLT; Swift reads the fields).")
    w(f"<!-- /cpu-family: {cpu_family} -->")
    write_keeping_other_families(args.output, cpu_family, "\n".join(lines) + "\n")


def first_len(growth):
    return next(iter(growth.values()))[0]["steps"]


HEADER = """# Benchmarks: the Swift binding, the raw C engine and pymunk, side by side

Regenerate with `scripts/bench.sh` (about 13 minutes on 2 cores, a clean build included; `--quick`: fewer steps and repeats). Each
CPU family measured has a section of its own, never mixed: memory-layout effects differ
between Intel and AMD. A run replaces its own family's section and keeps the others.

The worlds, modes and hash are defined in `Benchmarks/Sources/ChipmunkBench/` and described
in docs/performance.md. Swift is `chipmunk-bench`, C is `chipmunk-bench-c` (the same worlds against
the raw C API, same library), pymunk is `scripts/bench/pymunk_bench.py`. Swift and C are
stepped by turns in one process, one step at a time (`chipmunk-bench --against-c`), so that
the noise of a shared machine falls on both alike; Swift/C is the median over the repeats of
the ratio of their totals. Timed runs are pinned to one CPU. pymunk/Swift compares the
fastest run of each (best of N): noise only ever adds time. pymunk's numbers include its own
engine build, compiled without Debian's debug checks, so pymunk/Swift mixes engine and
binding costs; Swift/C is the binding alone.
"""


def write_keeping_other_families(path, cpu_family, section):
    """Replaces this CPU family's section of BENCHMARKS.md where it stands and keeps the rest:
    the other families' sections and the sections other scripts write (the live server's,
    scripts/live-bench.sh; the save and restore table, state_report.py). The text before the
    first family section is the header, written anew."""
    import re
    try:
        old = open(path).read()
    except OSError:
        old = ""
    families = list(re.finditer(r"<!-- cpu-family: (\w+) -->.*?<!-- /cpu-family: \1 -->\n", old, re.S))
    if not families:
        open(path, "w").write(HEADER + "\n" + section + old)
        return
    head, rest = HEADER + "\n", old[families[0].start():]
    mine = [m for m in re.finditer(r"<!-- cpu-family: (\w+) -->.*?<!-- /cpu-family: \1 -->\n", rest, re.S)
            if m.group(1) == cpu_family]
    if mine:
        rest = rest[: mine[0].start()] + section + rest[mine[0].end():]
    else:
        last = list(re.finditer(r"<!-- /cpu-family: \w+ -->\n", rest))[-1]
        rest = rest[: last.end()] + "\n" + section + rest[last.end():]
    open(path, "w").write(head + rest)


if __name__ == "__main__":
    main()
