#!/usr/bin/env python3
"""Measures `chipmunk-sim serve` on loopback (scripts/live-bench.sh runs it; BENCHMARKS.md).

    python3 scripts/live_bench.py CHIPMUNK_SIM [--seconds 10] [--scenes a,b] [--viewers 1,4]

For each scene and number of viewers: starts the server on a free port, connects that many
WebSocket viewers that read every frame, and for --seconds measures
  - server CPU per frame: the server process's user+system time (/proc) over the frames
    sent to one viewer;
  - frames: how many reached viewer 1, and how many 60 Hz frames were missed (a gap of
    more than 1.5 frame periods between two frames counts the frames it skipped);
  - input-to-frame latency: viewer 1 sends a tilt every 0.25 s and times the first frame
    whose gravity is the new one (median, 95th percentile, worst).
Prints one Markdown table row per run. Then, for each scene, the Back slider's cost: one
viewer lets the world run 11 s, pauses it, and scrubs 200 times to steps spread over the last
9 s, 20 ms apart; the server's CPU time over them, less what the paused world uses when
nothing is asked (measured for 3 s before), divided by 200 (--scrubs 0 skips this).
"""
import argparse, asyncio, json, os, statistics, struct, subprocess, sys, time, urllib.request

import websockets

TICK = os.sysconf("SC_CLK_TCK")


def rss_mib(pid):
    for line in open("/proc/%d/status" % pid):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid):
    fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime


async def viewer(url, stop, stats, probe):
    async with websockets.connect(url, max_size=1 << 24) as ws:
        await ws.send('{"type":"hello"}')
        last = None
        pending = None  # (gravity, sent at)
        next_tilt = time.monotonic() + 0.5
        flip = 1
        while not stop.is_set():
            try:
                message = await asyncio.wait_for(ws.recv(), timeout=1)
            except asyncio.TimeoutError:
                continue
            now = time.monotonic()
            if isinstance(message, str):
                continue
            stats["frames"] += 1
            if last is not None:
                gap = now - last
                if gap > 1.5 / 60:
                    stats["missed"] += round(gap * 60) - 1
            last = now
            stats["bytes"] = len(message)
            if not probe:
                continue
            gx, gy = struct.unpack_from("<ff", message, 16)
            if pending and abs(gx - pending[0]) < 1e-3:
                stats["latency"].append(now - pending[1])
                pending = None
            if pending is None and now >= next_tilt:
                flip = -flip
                g = 300.0 * flip
                await ws.send('{"type":"tilt","gx":%r,"gy":-1000}' % g)
                pending = (g, time.monotonic())
                next_tilt = now + 0.25


async def measure(binary, scene, viewers, seconds):
    server = subprocess.Popen([binary, "serve", scene, "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().split()[1].replace("http", "ws") + "ws"
        stop = asyncio.Event()
        stats = [{"frames": 0, "missed": 0, "latency": [], "bytes": 0} for _ in range(viewers)]
        tasks = [asyncio.create_task(viewer(url, stop, stats[i], i == 0)) for i in range(viewers)]
        await asyncio.sleep(2)  # connected, warmed up
        for s in stats:
            s.update(frames=0, missed=0, latency=[])
        cpu0, t0, rss0 = cpu_seconds(server.pid), time.monotonic(), rss_mib(server.pid)
        await asyncio.sleep(seconds)
        cpu1, t1, rss1 = cpu_seconds(server.pid), time.monotonic(), rss_mib(server.pid)
        frames, missed, latency = stats[0]["frames"], stats[0]["missed"], sorted(stats[0]["latency"])
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        p95 = latency[int(len(latency) * 0.95)] if latency else float("nan")
        return {
            "scene": scene, "viewers": viewers, "frames": frames, "expected": round((t1 - t0) * 60),
            "missed": missed, "cpu_ms_per_frame": (cpu1 - cpu0) * 1000 / max(frames, 1),
            "cpu_share": (cpu1 - cpu0) / (t1 - t0), "latency_median_ms": statistics.median(latency) * 1000 if latency else float("nan"),
            "latency_p95_ms": p95 * 1000, "latency_max_ms": latency[-1] * 1000 if latency else float("nan"),
            "probes": len(latency), "frame_bytes": stats[0]["bytes"], "rss": (rss0, rss1),
        }
    finally:
        server.terminate()
        server.wait()


async def measure_scrubs(binary, scene, count):
    server = subprocess.Popen([binary, "serve", scene, "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().split()[1]

        def state():
            with urllib.request.urlopen(url + "state", timeout=30) as r:
                return json.loads(r.read())
        async with websockets.connect(url.replace("http", "ws") + "ws", max_size=1 << 24) as ws:
            async def drain(seconds):
                end = time.monotonic() + seconds
                while (left := end - time.monotonic()) > 0:
                    try:
                        await asyncio.wait_for(ws.recv(), timeout=left)
                    except asyncio.TimeoutError:
                        break
            while state()["step"] < 11 * 120:
                await drain(0.2)
            await ws.send('{"type":"pause"}')
            await drain(0.5)
            cpu0, t0 = cpu_seconds(server.pid), time.monotonic()
            await drain(3)
            idle = (cpu_seconds(server.pid) - cpu0) / (time.monotonic() - t0)
            last = state()["scrub"][1]
            reach = 9 * 120
            cpu0, t0 = cpu_seconds(server.pid), time.monotonic()
            for i in range(count):
                await ws.send(json.dumps({"type": "scrub", "step": last - reach + (i * 397) % reach}))
                await drain(0.02)
            await drain(0.5)
            used = cpu_seconds(server.pid) - cpu0 - idle * (time.monotonic() - t0)
            return used * 1000 / count, idle
    finally:
        server.terminate()
        server.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--scenes", default="crates-tilt,ui-heavy,pyramid-topple")
    parser.add_argument("--viewers", default="1,4")
    parser.add_argument("--scrubs", type=int, default=200)
    args = parser.parse_args()
    print("| scene | viewers | frames received / expected | missed | server CPU per frame | CPU share | input→frame median | p95 | worst | frame bytes | RSS MiB, start → end |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for scene in args.scenes.split(","):
        for n in [int(v) for v in args.viewers.split(",")]:
            r = asyncio.run(measure(args.binary, scene, n, args.seconds))
            print("| %s | %d | %d / %d | %d | %.3f ms | %.1f %% | %.1f ms | %.1f ms | %.1f ms | %d | %.0f → %.0f |" % (
                r["scene"], r["viewers"], r["frames"], r["expected"], r["missed"], r["cpu_ms_per_frame"],
                r["cpu_share"] * 100, r["latency_median_ms"], r["latency_p95_ms"], r["latency_max_ms"], r["frame_bytes"],
                r["rss"][0], r["rss"][1]))
            sys.stdout.flush()
    if args.scrubs <= 0:
        return
    print()
    print("| scene | server CPU per scrub | paused world's CPU share, taken off |")
    print("|---|---|---|")
    for scene in args.scenes.split(","):
        per_scrub, idle = asyncio.run(measure_scrubs(args.binary, scene, args.scrubs))
        print("| %s | %.2f ms | %.1f %% |" % (scene, per_scrub, idle * 100))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
