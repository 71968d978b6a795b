#!/usr/bin/env python3
"""Compares two runs of one world, on amd64 and on arm64, for scripts/cross-arch.sh.

Each run is either the output of cross-arch-trajectory (`h STEP HASH` after every step,
`b STEP BODY x y angle vx vy w` at checkpoints) or the CSV of chipmunk-reference
(`step,body,x,y,angle,vx,vy,w` for every step). Numbers are %.17g, so they parse back to
the exact doubles.

usage: compare.py first AMD64 ARM64
           prints the first step whose state differs in bits (0 if none)
       compare.py row NAME BODIES DT STEPS SECONDS AMD64 ARM64 [MORE_AMD64 MORE_ARM64]
           prints one Markdown table row (the columns of cross-arch.sh's table); MORE_* are runs with a checkpoint at the first
           differing step, when the main runs have none there
"""
import math
import struct
import sys

QUANTITIES = ("x", "y", "angle", "vx", "vy", "w")


def read(path):
    """(per-step keys, {step: [body state]}) of one run."""
    keys, states = {}, {}
    with open(path) as f:
        first = f.readline()
        if first.startswith("step,body,"):
            for line in f:
                fields = line.rstrip("\n").split(",")
                step = int(fields[0])
                states.setdefault(step, []).append(tuple(float(v) for v in fields[2:]))
            for step, bodies in states.items():
                keys[step] = tuple(bodies)
            return keys, states
        f.seek(0)
        for line in f:
            fields = line.split()
            if fields[0] == "h":
                keys[int(fields[1])] = fields[2]
            elif fields[0] == "b":
                states.setdefault(int(fields[1]), []).append(tuple(float(v) for v in fields[3:]))
    return keys, states


def first_difference(a, b):
    steps = sorted(set(a) & set(b))
    if not steps:
        sys.exit("compare.py: the two runs share no step")
    if 0 in a and a[0] != b.get(0):
        sys.exit("compare.py: the two runs start from different states (step 0); the driver was built with FMA contraction?")
    for step in steps:
        if a[step] != b[step]:
            return step
    return 0


def ulps(x, y):
    def ordered(v):
        bits = struct.unpack("<q", struct.pack("<d", v))[0]
        return bits if bits >= 0 else -(bits & 0x7FFFFFFFFFFFFFFF)
    return abs(ordered(x) - ordered(y))


def largest_at(sa, sb):
    """The largest absolute difference between two states of all bodies: its size, its
    quantity, and how many ulps apart the two values are (None across zero or a sign)."""
    worst, name, apart = 0.0, "", None
    for ba, bb in zip(sa, sb):
        for q, (x, y) in enumerate(zip(ba, bb)):
            if abs(x - y) > worst:
                worst, name = abs(x - y), QUANTITIES[q]
                apart = ulps(x, y) if x != 0 and y != 0 and (x > 0) == (y > 0) else None
    return worst, name, apart


def distance(sa, sb):
    """The largest distance between a body's two positions."""
    return max(math.hypot(ba[0] - bb[0], ba[1] - bb[1]) for ba, bb in zip(sa, sb))


def number(v):
    if v == 0:
        return "0"
    if v >= 100:
        return f"{v:,.0f}"
    return f"{v:.2g}" if v < 0.01 else f"{v:.3g}"


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "first":
        a, _ = read(sys.argv[2])
        b, _ = read(sys.argv[3])
        print(first_difference(a, b))
        return
    if len(sys.argv) not in (9, 11) or sys.argv[1] != "row":
        sys.exit(__doc__)
    name, bodies, dt, steps, seconds = sys.argv[2:7]
    (ka, sa), (kb, sb) = read(sys.argv[7]), read(sys.argv[8])
    first = first_difference(ka, kb)
    if len(sys.argv) == 11:
        _, more_a = read(sys.argv[9])
        _, more_b = read(sys.argv[10])
        sa, sb = {**more_a, **sa}, {**more_b, **sb}
    if first == 0:
        at_first = "—"
        first_text = f"none in {int(steps):,}"
    else:
        first_text = str(first)
        if first in sa and first in sb:
            worst, quantity, apart = largest_at(sa[first], sb[first])
            # Ulps say something only where the values are not near zero (an angular
            # velocity of 1e-27 against 1e-16 is 10^11 ulps apart).
            shown = apart is not None and apart <= 1_000_000
            at_first = f"{worst:.2g} in {quantity}" + (f" ({apart:,} ulp)" if shown else "")
        else:
            at_first = "?"
    differing = sum(1 for step in ka if step > 0 and ka[step] != kb.get(step))
    cells = [f"{differing:,}"]
    for step in (10, 100, 1000):
        if step > int(steps):
            cells.append("—")
        elif step in sa and step in sb:
            cells.append(number(distance(sa[step], sb[step])))
        else:
            cells.append("?")
    print(f"| {name} | {bodies} | {dt} | {int(steps):,} | {first_text} | {at_first} | "
          + " | ".join(cells) + f" | {seconds} |")


main()
