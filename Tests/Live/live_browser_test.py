#!/usr/bin/env python3
"""chipmunk-sim serve in real headless Chromium, as a person uses it (docs/live.md).

    python3 Tests/Live/live_browser_test.py PATH/TO/chipmunk-sim [--user-executable PATH/TO/live-ramp]
                                            [--screenshots DIR]

Starts `chipmunk-sim serve crates-tilt --port 0`, opens the page in Chromium (Playwright,
Debian's chromium-headless-shell) and checks, from the server's own state (/state):
a drag moves a crate where the pointer went; two fingers on a phone carry two crates at once; Snap mode's taps snap a crate; a synthetic device-orientation event turns
gravity; pause, step, scrub back and continue (a branch); the page's Recording download
replays bit for bit with `chipmunk-sim replay` and passes `chipmunk-sim synctest`; four viewers and a flood of malformed,
oversized and rapid messages leave the world running. No wall-clock tolerances: each
check waits for a condition of the world (with a generous limit against hanging).
Prints 'N passed, N failed' last.
"""
import json, math, os, shutil, subprocess, sys, tempfile, time, urllib.request

from playwright.sync_api import sync_playwright

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-headless-shell") or "/usr/bin/chromium"
LIMIT = 60.0  # seconds any one condition may take on a very busy machine before the test fails


def state(url):
    with urllib.request.urlopen(url + "state", timeout=30) as r:
        return json.loads(r.read())


def wait_until(what, condition, limit=LIMIT):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out waiting until " + what)


def body(s, name):
    return next(b for b in s["bodies"] if b["name"] == name)


def user_executable(path, shots):
    """Examples/live-ramp: LiveServer(name: "live-ramp") { makeRamp() } in a user's main.swift."""
    server = subprocess.Popen([path, "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        assert line.startswith("Serving http://127.0.0.1:"), line
        url = line.split()[1]
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": 700, "height": 600})
            page.set_default_timeout(LIMIT * 1000)
            page.goto(url)
            page.wait_for_function("window.live && live.connected && live.scene && live.frame", timeout=LIMIT * 1000)
            assert page.evaluate("live.scene.name") == "ramp"
            wait_until("the ball rests", lambda: state(url)["step"] > 240)
            x, y = body(state(url), "0")["position"]
            target = (150, 220)
            page.mouse.move(*page.evaluate("live.toPage(%r, %r)" % (x, y)))
            page.mouse.down()
            page.mouse.move(*page.evaluate("live.toPage(%r, %r)" % target), steps=15)
            wait_until("the ball follows the pointer", lambda: math.dist(body(state(url), "0")["position"], target) < 15)
            if shots:
                page.screenshot(path=os.path.join(shots, "live-user-executable.png"))
            page.mouse.up()
            with urllib.request.urlopen(url + "recording", timeout=30) as r:
                recording = json.loads(r.read())
            assert recording["scene"] == "live-ramp", recording["scene"]
            assert any("grab" in e["input"] for e in recording["inputs"]), recording["inputs"][:3]
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=LIMIT)


def main():
    binary = sys.argv[1]
    shots = sys.argv[sys.argv.index("--screenshots") + 1] if "--screenshots" in sys.argv else None
    work = tempfile.mkdtemp(prefix="live-test-")
    server = subprocess.Popen([binary, "serve", "crates-tilt", "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    assert line.startswith("Serving http://127.0.0.1:"), line
    url = line.split()[1]
    results = []

    def check(name, test):
        try:
            test()
            results.append((name, None))
            print("passed: " + name)
        except Exception as error:  # noqa: BLE001 - the report names every failure
            results.append((name, error))
            print("FAILED: %s: %r" % (name, error))

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        context = browser.new_context(viewport={"width": 900, "height": 700}, accept_downloads=True)
        context.set_default_timeout(LIMIT * 1000)  # clicks and downloads on a busy machine
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        page.wait_for_function("window.live && live.connected && live.scene && live.frame", timeout=LIMIT * 1000)
        # After the gravity schedule (last change at 8 s) and the crates at rest.
        wait_until("the scene passes 9 s", lambda: state(url)["step"] > 9 * 120)
        if shots:
            page.screenshot(path=os.path.join(shots, "live-crates-tilt.png"))

        def drag():
            def hands():
                return [b for b in state(url)["bodies"] if b["name"].startswith("hand")]
            # On a busy machine the page can see the pointer go down a while after the state
            # was read: a grab that found no crate there lets go and tries again.
            for attempt in range(5):
                s = state(url)
                crate = min((b for b in s["bodies"] if b["kind"] == "dynamic"), key=lambda b: b["position"][0])
                x, y = crate["position"]
                page.mouse.move(*page.evaluate("live.toPage(%r, %r)" % (x, y)))
                page.mouse.down()
                try:
                    wait_until("the hand takes hold", hands, limit=LIMIT / 4)
                    break
                except AssertionError:
                    page.mouse.up()
                    if attempt == 4:
                        raise
            target = (x + 120, y + 150)
            try:
                for i in range(1, 21):
                    f = i / 20
                    page.mouse.move(*page.evaluate("live.toPage(%r, %r)" % (x + (target[0] - x) * f, y + (target[1] - y) * f)))
                    time.sleep(0.02)

                def near():
                    b = body(state(url), crate["name"])
                    return math.dist(b["position"], target) < 20
                wait_until("the crate reaches the pointer", near)
                if shots:
                    page.screenshot(path=os.path.join(shots, "live-drag.png"))
            finally:
                page.mouse.up()
            wait_until("the hand lets go", lambda: not hands())
        check("a drag moves the crate where the pointer went", drag)


        def tilt():
            page.evaluate("""window.dispatchEvent(new DeviceOrientationEvent("deviceorientation",
                             {alpha: 0, beta: 0, gamma: 30}))""")
            def turned():
                g = state(url)["gravity"]
                return abs(g[0] - 500) < 1e-6 and abs(g[1]) < 1e-6
            wait_until("gravity turns to (500, 0)", turned)
            page.keyboard.press("ArrowDown")  # back to the scene's gravity
            wait_until("gravity back down", lambda: state(url)["gravity"][1] < -900)
        check("a device tilt turns gravity, the arrow keys set it back", tilt)

        def pause_step_scrub():
            # Far enough past the gravity schedule (its last change at 8 s, step 960) that the
            # step scrubbed back to below is after it, however fast the checks before ran.
            wait_until("the scene passes 11 s", lambda: state(url)["step"] > 11 * 120)
            page.click("#pause")
            s0 = wait_until("paused", lambda: (lambda s: s if s["paused"] else None)(state(url)))
            page.click("#step")
            wait_until("one step", lambda: state(url)["step"] == s0["step"] + 1)
            first, last = state(url)["scrub"]
            assert last - first >= 600, (first, last)
            back = last - 245  # between two of the ring's snapshots: stepped on to it exactly
            page.evaluate("s => { const e = document.getElementById('scrub'); e.value = s; e.dispatchEvent(new Event('change')); }", back)
            s1 = wait_until("scrubbed back", lambda: (lambda s: s if s["step"] == back else None)(state(url)))
            assert s1["paused"]
            # The steps after stay recorded, and the slider reaches them, until the branch starts.
            assert s1["recordedSteps"] == last and s1["scrub"][1] == last, s1
            # Continue from there with a drag: the branch.
            page.click("#pause")
            # The branch starts at the first step taken after Continue (not at the click itself).
            s = wait_until("stepping on", lambda: (lambda s: s if not s["paused"] and s["step"] > back else None)(state(url)))
            assert s["recordedSteps"] == s["step"] or s["recordedSteps"] < last, s  # the recording was cut
            # The slowest crate: the world runs while the pointer goes down on it.
            crate = min((b for b in state(url)["bodies"] if b["kind"] == "dynamic"), key=lambda b: math.hypot(*b["velocity"]))
            x, y = crate["position"]
            assert page.evaluate("live.pointersDown") == 0
            page.mouse.move(*page.evaluate("live.toPage(%r, %r)" % (x, y)))
            page.mouse.down()
            # Towards the box's middle, whichever wall the crate is against.
            tx, ty = x + (150 - x) * 0.5, y + (150 - y) * 0.5
            try:
                page.mouse.move(*page.evaluate("live.toPage(%r, %r)" % (tx, ty)), steps=10)
                wait_until("dragged on the branch", lambda: math.dist(body(state(url), crate["name"])["position"], (tx, ty)) < 20)
            except AssertionError:
                raise AssertionError("the crate %r at %r did not follow (pointers down: %r): %r" % (
                    crate["name"], (x, y), page.evaluate("live.pointersDown"), state(url)))
            finally:
                page.mouse.up()  # the checks after count the hands
        check("pause, single step, scrub back and continue", pause_step_scrub)

        def two_fingers():
            try:
                carry_two(browser)
            finally:  # the phone leaves, whatever happened: the next check counts the viewers
                for other in browser.contexts[1:]:
                    other.close()
                wait_until("one viewer again", lambda: state(url)["viewers"] == 1)

        def carry_two(browser):
            # A phone: two fingers down on two crates at once (touch events through the DevTools
            # protocol, as a touch screen sends them), each carried to its own point.
            phone_context = browser.new_context(viewport={"width": 390, "height": 664}, device_scale_factor=3,
                                                has_touch=True, is_mobile=True)
            phone = phone_context.new_page()
            phone.on("pageerror", lambda e: errors.append(str(e)))
            phone.goto(url)
            phone.wait_for_function("window.live && live.connected && live.scene && live.frame", timeout=LIMIT * 1000)
            cdp = phone_context.new_cdp_session(phone)

            def touch(kind, points):
                cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
                    {"x": x, "y": y, "id": i} for i, (x, y) in points]})

            def page_point(world):
                return phone.evaluate("live.toPage(%r, %r)" % tuple(world))

            s = state(url)
            crates = sorted((b for b in s["bodies"] if b["kind"] == "dynamic"), key=lambda b: b["position"][0])
            held = [crates[0], crates[-1]]
            starts = [b["position"] for b in held]
            targets = [(90, 230), (210, 230)]
            touch("touchStart", [(i, page_point(starts[i])) for i in range(2)])
            wait_until("two hands", lambda: sum(b["name"].startswith("hand") for b in state(url)["bodies"]) == 2)
            for k in range(1, 21):
                f = k / 20
                touch("touchMove", [(i, page_point([starts[i][j] + (targets[i][j] - starts[i][j]) * f for j in range(2)]))
                                    for i in range(2)])
                time.sleep(0.02)

            def both_near():
                now = state(url)
                return all(math.dist(body(now, b["name"])["position"], t) < 20 for b, t in zip(held, targets))
            wait_until("each crate reaches its finger", both_near)
            if shots:
                phone.screenshot(path=os.path.join(shots, "live-two-fingers.png"))
            touch("touchEnd", [(1, page_point(targets[1]))])  # one finger lifts
            wait_until("one hand left", lambda: sum(b["name"].startswith("hand") for b in state(url)["bodies"]) == 1)
            time.sleep(0.5)  # its crate falls; the other finger's stays
            now = state(url)
            still = [math.dist(body(now, b["name"])["position"], t) < 20 for b, t in zip(held, targets)]
            assert sorted(still) == [False, True], "crates still at their fingers: %r" % still
            touch("touchEnd", [])
            wait_until("no hand left", lambda: not any(b["name"].startswith("hand") for b in state(url)["bodies"]))
        check("two fingers on a phone carry two crates, and each lets go on its own", two_fingers)

        def tap_to_snap():
            # The UIKit Dynamics chapter's snap: in Snap mode a tap on a crate chooses it, and a
            # tap elsewhere snaps it there, upright.
            page.check("input[value=snap]")
            try:
                s = state(url)
                crate = min((b for b in s["bodies"] if b["kind"] == "dynamic"), key=lambda b: b["position"][1])
                page.mouse.click(*page.evaluate("live.toPage(%r, %r)" % tuple(crate["position"])))
                page.wait_for_function("document.getElementById('notice').textContent.includes('chosen')",
                                       timeout=LIMIT * 1000)
                target = (150, 200)
                page.mouse.click(*page.evaluate("live.toPage(%r, %r)" % target))

                def snapped():
                    b = body(state(url), crate["name"])
                    turn = math.remainder(b["angle"], 2 * math.pi)
                    return math.dist(b["position"], target) < 1 and abs(turn) < 0.01
                wait_until("the crate snaps to the tap, upright", snapped)
                if shots:
                    page.screenshot(path=os.path.join(shots, "live-snap.png"))
            finally:
                page.check("input[value=drag]")
        check("Snap mode: a tapped crate snaps upright to the next tap", tap_to_snap)

        def many_viewers_and_bad_messages():
            pages = [browser.new_page() for _ in range(3)]
            for other in pages:
                other.goto(url)
                other.wait_for_function("window.live && live.connected && live.frame", timeout=LIMIT * 1000)
            wait_until("four viewers", lambda: state(url)["viewers"] == 4)
            closed = pages[0].evaluate("""async () => {
                const bad = ['not json', '{"type":"grab"}', '{"type":"warp","x":1}', 'x'.repeat(5000),
                             '{"type":"tilt","gx":1e308,"gy":0}', '{"type":"grab","x":NaN,"y":0}',
                             // Its reason, cut at byte 120 inside an emoji, stopped the server.
                             '{"type":"' + '\\u{1F600}'.repeat(40) + '"}'];
                const reasons = [];
                for (const message of bad) {
                    reasons.push(await new Promise((resolve) => {
                        const ws = new WebSocket(location.href.replace('http', 'ws') + 'ws');
                        ws.onopen = () => ws.send(message);
                        ws.onclose = (e) => resolve(e.code + ' ' + e.reason);
                    }));
                }
                reasons.push(await new Promise((resolve) => {
                    const ws = new WebSocket(location.href.replace('http', 'ws') + 'ws');
                    ws.onopen = () => { for (let i = 0; i < 5000; i++) ws.send('{"type":"move","x":1,"y":2}'); };
                    ws.onclose = (e) => resolve(e.code + ' ' + e.reason);
                    setTimeout(() => { ws.close(); resolve('still open after %d s'); }, %d);
                }));
                return reasons;
            }""" % (LIMIT / 3, LIMIT / 3 * 1000))
            # Malformed messages are refused with their reason (policy violation, 1008). The oversized
            # and the flooding sockets are closed while the browser is still sending, which it may
            # report as 1006; LiveWorldTests checks their reasons. The flood meets the limit of 1,000
            # messages a second, or its share of the world's time (LiveAttackFollowUpTests); on a
            # machine so busy that the server reads fewer than 1,000 in a second and they take
            # little of its time, neither, and the page closes it: those limits are the unit
            # tests', on clocks of their own. Here the world and the other viewers go on.
            assert len(closed) == 8, closed
            for reason in closed[:3] + closed[4:7]:
                assert reason.startswith("1008 "), closed
            assert closed[6].startswith('1008 unknown type "\U0001F600'), closed
            assert closed[3].startswith(("1008 message of 5000 bytes", "1006")), closed
            assert closed[7].startswith(
                ("1008 more than 1000 messages", "1008 its messages took more of the world's time", "1006",
                 "still open after")), closed
            before = state(url)["step"]
            wait_until("the world goes on", lambda: state(url)["step"] > before + 60)
            assert page.evaluate("live.connected")
            for other in pages:
                other.close()
            wait_until("one viewer again", lambda: state(url)["viewers"] == 1)
        check("four viewers and a flood of bad messages: the world goes on", many_viewers_and_bad_messages)

        def recording_replays():
            # The scrub dropped the earlier tilt with the branch: tilt once more on this one.
            page.evaluate("""window.dispatchEvent(new DeviceOrientationEvent("deviceorientation",
                             {alpha: 0, beta: -30, gamma: 0}))""")
            wait_until("gravity turns up", lambda: state(url)["gravity"][1] > 0)
            with page.expect_download(timeout=LIMIT * 1000) as info:
                page.click("#recording")
            path = os.path.join(work, "session.inputs.json")
            info.value.save_as(path)
            recording = json.load(open(path))
            kinds = {next(iter(e["input"])) for e in recording["inputs"]}
            assert {"grab", "velocity", "remove", "gravity"} <= kinds, kinds
            out = subprocess.run([binary, "replay", path], capture_output=True, text=True)
            assert out.returncode == 0, out.stderr
            assert "replay bit for bit" in out.stdout, out.stdout
            print("   " + out.stdout.strip())
            # The session as a rollback test: its hand's inputs applied again at every rollback.
            out = subprocess.run([binary, "synctest", path, "--depth", "8"], capture_output=True, text=True)
            assert out.returncode == 0, out.stderr
            assert "every hash matches" in out.stdout, out.stdout
            print("   " + out.stdout.strip())
        check("the session's recording replays bit for bit, and survives a depth-8 synctest", recording_replays)

        def snapshot_downloads():
            with page.expect_download(timeout=LIMIT * 1000) as info:
                page.click("#snapshot")
            path = os.path.join(work, "session.snapshot")
            info.value.save_as(path)
            out = subprocess.run([binary, "run", path, "--steps", "10"], capture_output=True, text=True)
            assert out.returncode == 0, out.stderr
        check("the page's Snapshot link downloads a snapshot that runs on", snapshot_downloads)

        check("no error on the page", lambda: (_ for _ in ()).throw(AssertionError(errors)) if errors else None)
        browser.close()

    server.terminate()
    if "--user-executable" in sys.argv:
        check("a user's own executable serves its Swift scene, and a drag moves its ball",
              lambda: user_executable(sys.argv[sys.argv.index("--user-executable") + 1], shots))
    check("SIGTERM stops the server cleanly", lambda: server.wait(timeout=LIMIT) == 0 or (_ for _ in ()).throw(
        AssertionError("exit %s: %s" % (server.returncode, server.stderr.read()))))
    shutil.rmtree(work, ignore_errors=True)
    failed = [name for name, error in results if error]
    print("live: %d passed, %d failed" % (len(results) - len(failed), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
