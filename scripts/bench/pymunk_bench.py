#!/usr/bin/env python3
"""The benchmark worlds of `chipmunk-bench`, written with pymunk (PyPI), for
scripts/bench.sh: the same objects created in the same order, the same modes, the same
JSON line and FNV-1a hash.

pymunk bundles its own fork of Chipmunk (pymunk.chipmunk_version), not Debian's 7.0.3,
so its trajectories, and hashes, can differ from the Swift and C runs.

usage: pymunk_bench.py SCENE [--steps N] [--mode plain|reads|callbacks|churn] [--repeat R]
"""
import argparse
import json
import struct
import sys
import time

import pymunk

SCENES = {
    "pyramid20": (1 / 120, 500, 25),
    "pyramid40": (1 / 120, 500, 45),
    "pyramid100": (1 / 60, 200, 105),
    "circles1000": (1 / 60, 500, 1250),
    "jointgrid50": (1 / 60, 200, 10),
}
MASK64 = (1 << 64) - 1


def splitmix(seed):
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def pyramid(space, rows):
    space.gravity = (0, -10)
    space.iterations = 10
    space.collision_slop = 0.01
    reach = float(rows + 10)
    ground = pymunk.Segment(space.static_body, (-reach, 0), (reach, 0), 0)
    ground.friction = 0.6
    space.add(ground)
    bodies = []
    for row in range(rows):
        n = rows - row
        for i in range(n):
            body = pymunk.Body(1, pymunk.moment_for_box(1, (1, 1)))
            body.position = (float(i) - float(n) / 2 + 0.5, 0.5 + float(row))
            space.add(body)
            shape = pymunk.Poly.create_box(body, (1, 1), 0)
            shape.friction = 0.6
            space.add(shape)
            bodies.append(body)
    return bodies


def circles(space):
    space.gravity = (0, -100)
    space.iterations = 10
    space.collision_slop = 0.5
    for a, b in [((-300, 1200), (-300, 0)), ((-300, 0), (300, 0)), ((300, 0), (300, 1200))]:
        wall = pymunk.Segment(space.static_body, a, b, 0)
        wall.friction = 0.9
        space.add(wall)
    draws = splitmix(42)
    bodies = []
    for _ in range(1000):
        u = (next(draws) >> 11) * 2.0 ** -53
        v = (next(draws) >> 11) * 2.0 ** -53
        body = pymunk.Body(1, pymunk.moment_for_circle(1, 0, 5))
        body.position = (-290 + 580 * u, 20 + 1100 * v)
        space.add(body)
        shape = pymunk.Circle(body, 5)
        shape.friction = 0.9
        shape.elasticity = 0
        space.add(shape)
        bodies.append(body)
    return bodies


def joint_grid(space, size):
    space.gravity = (0, -10)
    space.iterations = 10
    bodies = []
    for k in range(size):
        for i in range(size):
            x, y = float(i), -float(k)
            body = pymunk.Body(1, pymunk.moment_for_circle(1, 0, 0.4))
            body.position = (x, y)
            space.add(body)
            shape = pymunk.Circle(body, 0.4)
            shape.filter = pymunk.ShapeFilter(group=1)
            space.add(shape)
            if k == 0 and i % 8 == 0:
                space.add(pymunk.PivotJoint(body, space.static_body, (x, 0)))
            if i > 0:
                space.add(pymunk.PivotJoint(body, bodies[-1], (x - 0.5, y)))
            if k > 0:
                space.add(pymunk.PivotJoint(body, bodies[-size], (x, y + 0.5)))
            bodies.append(body)
    return bodies


def build(space, name):
    if name.startswith("pyramid"):
        return pyramid(space, int(name[len("pyramid"):]))
    if name == "circles1000":
        return circles(space)
    return joint_grid(space, 50)


def fnv(bodies):
    h = 0xCBF29CE484222325
    for body in bodies:
        p = body.position
        for value in (p.x, p.y, body.angle):
            for byte in struct.pack("<d", value):
                h ^= byte
                h = (h * 0x100000001B3) & MASK64
    return h


def run(name, mode, steps):
    dt, _, churn_height = SCENES[name]
    space = pymunk.Space()
    bodies = build(space, name)
    count = len(bodies)
    calls = [0]
    if mode == "callbacks":
        def count_and_accept(arbiter, space, data):
            calls[0] += 1
        space.on_collision(begin=count_and_accept, pre_solve=count_and_accept)
    total = 0.0
    read_seconds = 0.0
    start = time.perf_counter()
    if mode == "reads":
        for _ in range(steps):
            space.step(dt)
            read_start = time.perf_counter()
            for body in bodies:
                p = body.position
                total += p.x + p.y + body.angle
            read_seconds += time.perf_counter() - read_start
    elif mode == "churn":
        extras = []
        for step in range(1, steps + 1):
            if step % 8 == 0:
                if not extras:
                    for j in range(100):
                        body = pymunk.Body(1, pymunk.moment_for_circle(1, 0, 0.15))
                        body.position = (-20 + 0.4 * j, churn_height)
                        space.add(body)
                        shape = pymunk.Circle(body, 0.15)
                        shape.friction = 0.6
                        space.add(shape)
                        extras.append((body, shape))
                        bodies.append(body)
                else:
                    for body, shape in extras:
                        space.remove(shape)
                        space.remove(body)
                    del bodies[-100:]
                    extras = []
            space.step(dt)
    else:
        for _ in range(steps):
            space.step(dt)
    seconds = time.perf_counter() - start
    return seconds, count, fnv(bodies), calls[0], total, read_seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scene", choices=sorted(SCENES))
    parser.add_argument("--steps", type=int)
    parser.add_argument("--mode", default="plain", choices=["plain", "reads", "callbacks", "churn"])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    steps = args.steps or SCENES[args.scene][1]
    if steps < 1 or args.repeat < 1:
        parser.error("--steps and --repeat must be at least 1")
    runs = [run(args.scene, args.mode, steps) for _ in range(args.repeat)]
    times = sorted(r[0] * 1000 / steps for r in runs)
    reads = sorted(r[5] * 1000 / steps for r in runs)
    n = len(times)
    line = {
        "scene": args.scene, "mode": args.mode, "bodies": runs[0][1], "steps": steps,
        "ms_per_step": (times[n // 2] + times[(n - 1) // 2]) / 2, "ms_per_step_min": times[0],
        "hash": "%016x" % runs[0][2], "threads": 1, "parallel": 1, "repeat": n,
        "pymunk": pymunk.version, "engine": pymunk.chipmunk_version,
    }
    if args.mode == "callbacks":
        line["callbacks_per_step"] = runs[0][3] / steps
    if args.mode == "reads":
        line["read_ms_per_step"] = reads[n // 2]
        line["read_sum"] = runs[0][4]
    print(json.dumps(line))


if __name__ == "__main__":
    sys.exit(main())
