#!/usr/bin/env python3
"""pymunk's side of issue 27's table (scripts/bench.sh --state): after the same warm-up
steps as `chipmunk-bench --state`, the median time of `Space.copy()`, of pickling the space
and of unpickling it, the pickle's size, and a step's time, on the benchmark worlds.

usage: pymunk_state.py SCENE [--steps N] [--rounds R]   (one JSON line)
"""
import argparse
import json
import pickle
import statistics
import time

import pymunk

from pymunk_bench import SCENES, build


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scene", choices=sorted(SCENES))
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    dt = SCENES[args.scene][0]
    space = pymunk.Space()
    bodies = build(space, args.scene)
    for _ in range(args.steps):
        space.step(dt)

    def timed(action):
        samples = []
        for _ in range(args.rounds):
            start = time.perf_counter()
            result = action()
            samples.append(time.perf_counter() - start)
        return statistics.median(samples) * 1e6, result

    copy_us, _ = timed(space.copy)
    dump_us, data = timed(lambda: pickle.dumps(space))
    load_us, _ = timed(lambda: pickle.loads(data))
    stepper = space.copy()
    step_us, _ = timed(lambda: stepper.step(dt))
    print(json.dumps({
        "scene": args.scene, "bodies": len(bodies), "after_steps": args.steps, "step_us": round(step_us, 1),
        "copy_us": round(copy_us, 1), "pickle_dump_us": round(dump_us, 1), "pickle_load_us": round(load_us, 1),
        "pickle_bytes": len(data), "pymunk": pymunk.version, "chipmunk": pymunk.chipmunk_version,
    }))


if __name__ == "__main__":
    main()
