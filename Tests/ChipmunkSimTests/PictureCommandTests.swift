import ChipmunkPictures
import Foundation
import Testing
import ChipmunkTestSupport

@Suite struct RenderCommandTests {
    @Test("render writes SVG and text for a scene, a file and a snapshot; bad options are named")
    func renders() throws {
        let svg = try Tool.sim("render", "crates", "--step", "10")
        #expect(svg.status == 0 && svg.stdout.hasPrefix("<svg") && svg.stdout.hasSuffix("</svg>\n"), "\(svg.stderr)")
        let text = try Tool.sim("render", "Scenes/pendulum.json", "--format", "text", "--width", "40")
        #expect(text.status == 0 && text.stdout.unicodeScalars.contains { $0.value > 0x2800 && $0.value <= 0x28FF })
        #expect(try Tool.sim("render", "crates", "--view", "0,0,-1,5").stderr.contains("--view must be"))
        let negative = try Tool.sim("render", "crates", "--view", "-50,-50,400,400")
        #expect(
            negative.status == 0 && negative.stdout.hasPrefix("<svg"), "a view may start below 0: \(negative.stderr)")
        #expect(try Tool.sim("render", "crates", "--format", "png").stderr.contains("--format png needs -o FILE"))
        let gif = try Tool.sim("render", "crates", "--format", "gif")
        #expect(gif.stderr.contains("Please provide one of 'svg', 'png' or 'text'"), "\(gif.stderr)")
        #expect(try Tool.sim("run", "crates", "--format", "html").stderr.contains("--format html needs --output FILE"))
        #expect(try Tool.sim("render", "crates", "--every", "60").stderr.contains("--every needs --step N"))
        #expect(
            try Tool.sim("render", "crates", "--step", "60", "--every", "30", "-o", "a.svg").stderr.contains(
                "give -o with a number"))
        #expect(try Tool.sim("render", "crates", "--size", "300").stderr.contains("--size must be WxH"))
        #expect(try Tool.sim("render", "crates", "--size", "300x").stderr.contains("--size must be WxH"))
        #expect(
            try Tool.sim("render", "crates", "--size", "0x10").stderr.contains("--size must be from 1x1 to 20000x20000")
        )
        #expect(
            try Tool.sim("render", "crates", "--size", "30x10", "--width", "30").stderr.contains(
                "give --size or --width, not both"))
        #expect(
            try Tool.sim("run", "crates", "--format", "html", "--width", "3", "-o", "/tmp/x.html").stderr
                .contains(
                    "The value '3' is invalid for '--width <width>': expected a whole number of pixels from 16 to 8192")
        )
        // Text that is not a whole number gets the range too, not only "invalid" (a newcomer's pass).
        #expect(
            try Tool.sim("render", "crates", "--width", "1e9", "-o", "/tmp/x.png").stderr
                == "chipmunk-sim: The value '1e9' is invalid for '--width <width>': expected a whole number of pixels or characters from 1 to 20000\n"
        )
        // Text past 4,000,000 characters (20000x20000 took minutes and gigabytes), refused
        // before a step is taken when the options fix its size; a fitted view, when drawn.
        #expect(
            try Tool.sim("render", "crates", "--format", "text", "--size", "20000x20000").stderr
                == "chipmunk-sim: --size 20000x20000 is 400000000 characters of text, more than 4000000 (2000x2000)\n")
        let tall = try Tool.sim(
            "render", "crates", "--format", "text", "--view", "0,0,1,10000", "--step", "100000000")
        #expect(tall.status == 65 && tall.stdout.isEmpty)
        #expect(tall.stderr.hasPrefix("chipmunk-sim: a text picture of 80 × 400000 characters is too large"))
        let wide = try Tool.sim("render", "crates", "--format", "text", "--width", "20000")
        #expect(wide.status == 65 && wide.stderr.contains("20000 × 10000 characters is too large"), "\(wide.stderr)")
        let tooLong = try Tool.sim("run", "crates", "--format", "html", "--steps", "100000", "-o", "/tmp/never.html")
        #expect(
            tooLong.stderr.contains(
                "at most 100000 recorded steps, and 100000 steps with --every 1 would record 100001: add --every 2 or more"
            ))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never.html"))
    }
}

@Suite struct RenderSnapshotTests {
    /// A snapshot goes on from its step, as `run`'s does. render drew a crates snapshot taken at
    /// step 120 for --step 0 and --step 60 alike and called it step 0 or 60, and --every named
    /// five copies of step 120 as steps 0 to 120.
    @Test("render of a snapshot counts --step from the snapshot's step and names frames by the run's step")
    func snapshotSteps() throws {
        let folder = try TemporaryFolder("render-snapshot")
        defer { folder.remove() }
        let snapshot = folder.path("crates-120.snapshot")
        #expect(try Tool.sim("snapshot", "crates", "--at", "120", "-o", snapshot).status == 0)
        let asTaken = try Tool.sim("render", snapshot, "-o", folder.path("a.svg"))
        #expect(asTaken.status == 0 && asTaken.stderr.contains("a.svg: step 120"), "\(asTaken.stderr)")
        let later = try Tool.sim("render", snapshot, "--step", "60", "-o", folder.path("b.svg"))
        #expect(later.status == 0 && later.stderr.contains("b.svg: step 180"), "\(later.stderr)")
        // The same picture as the scene drawn at step 180 from the start, and not step 120's.
        #expect(try Tool.sim("render", "crates", "--step", "180", "-o", folder.path("c.svg")).status == 0)
        func read(_ name: String) throws -> String { try String(contentsOfFile: folder.path(name), encoding: .utf8) }
        let (a, b, c) = (try read("a.svg"), try read("b.svg"), try read("c.svg"))
        #expect(b == c && a != b)
        let frames = try Tool.sim("render", snapshot, "--step", "60", "--every", "30", "-o", folder.path("f-%04d.svg"))
        #expect(frames.status == 0, "\(frames.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix("f-") }
        #expect(names.sorted() == ["f-0120.svg", "f-0150.svg", "f-0180.svg"])
        #expect(try read("f-0180.svg") == c)
    }
}

@Suite struct RenderSequenceTests {
    @Test("--every K writes a frame file per Kth step; --size gives the exact picture size; --contacts adds normals")
    func sequence() throws {
        let folder = try TemporaryFolder("frames")
        defer { folder.remove() }
        let pattern = folder.path("crates-%04d.png")
        let result = try Tool.sim(
            "render", "crates", "--step", "240", "--every", "60", "--format", "png", "--size", "300x200", "-o", pattern)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(
            files == ["crates-0000.png", "crates-0060.png", "crates-0120.png", "crates-0180.png", "crates-0240.png"])
        let image = try FrameImage(contentsOfPNG: folder.path("crates-0240.png"))
        #expect(image.width == 300 && image.height == 200)
        let plain = try Tool.sim("render", "crates", "--step", "240")
        let withContacts = try Tool.sim("render", "crates", "--step", "240", "--contacts")
        let red = { (svg: String) in
            svg.components(separatedBy: "<line").filter { $0.contains("stroke=\"rgb(255,0,0)\"") }.count
        }
        #expect(red(plain.stdout) == 0 && red(withContacts.stdout) >= 5, "a normal per contact point")
        let text = try Tool.sim(
            "render", "crates", "--step", "120", "--every", "60", "--format", "text", "--size", "30x10")
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.filter { $0.hasPrefix("step ") } == ["step 0", "step 60", "step 120"])
        #expect(lines.filter { !$0.hasPrefix("step ") && !$0.isEmpty }.count == 30, "three frames of 10 rows")
    }
}

/// The replay player, opened in headless Chromium as a person's browser would show it.
@Suite(.serialized) struct ReplayPlayerTests {
    let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("replay-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// crates, 240 steps, shown as the 300×300 box at one pixel a unit.
    func cratesPage() throws -> URL {
        let page = folder.appendingPathComponent("crates.html")
        let result = try Tool.sim(
            "run", "crates", "--steps", "240", "--format", "html", "--view", "0,0,300,300", "--width", "300", "-o",
            page.path)
        #expect(result.status == 0, "\(result.stderr)")
        return page
    }

    /// Cairo's picture of crates after `step` steps, the same view and size.
    func cairoFrame(_ scene: String = "crates", step: Int, view: String = "0,0,300,300", width: Int = 300) throws
        -> FrameImage
    {
        let file = folder.appendingPathComponent("\(scene)-\(step).png")
        let result = try Tool.sim(
            "render", scene, "--step", "\(step)", "--view", view, "--width", "\(width)", "--format", "png", "-o",
            file.path)
        #expect(result.status == 0, "\(result.stderr)")
        return try FrameImage(contentsOfPNG: file.path)
    }

    @Test("A 10-second pyramid-stack replay is one self-contained file under 2 MB")
    func pyramidSize() throws {
        let page = folder.appendingPathComponent("pyramid.html")
        let result = try Tool.sim("run", "pyramid-stack", "--seconds", "10", "--format", "html", "-o", page.path)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: page, encoding: .utf8)
        #expect(text.utf8.count < 2_000_000, "\(text.utf8.count) bytes")
        #expect(text.contains(#""frames":1801"#), "the state before the first step and after each of 1,800 steps")
        for remote in ["http://", "https://", " src=", "<link", "@import", "url("] {
            #expect(!text.contains(remote), "the page must not load anything: found \(remote)")
        }
    }

    @Test("Opened at #step=N, the player shows step N: pixels agree with Cairo's frame of step N, not of step 0")
    func showsTheStepAsked() throws {
        let page = try cratesPage()
        let shot = try Chromium.screenshot(page.absoluteString + "#step=60", width: 320, height: 420)
        let atStep = try cairoFrame(step: 60)
        let atStart = try cairoFrame(step: 0)
        let same = shot.differingShare(from: atStep, width: 300, height: 300)
        let other = shot.differingShare(from: atStart, width: 300, height: 300)
        #expect(same < 0.01, "\(same * 100) % of pixels differ from Cairo's step 60")
        #expect(other > 5 * max(same, 0.002), "step 0 differs by \(other * 100) %, step 60 by \(same * 100) %")

        // Each crate's centre has its colour, and where the crates started is empty now.
        let csv = try Tool.sim("run", "crates", "--steps", "60", "--every", "60")
        let centres = rows(csv.stdout).dropFirst().map { (Double($0[2])!, Double($0[3])!) }
        let starts = rows(try Tool.sim("run", "crates", "--steps", "1").stdout).dropFirst().map {
            (Double($0[2])!, Double($0[3])!)
        }
        #expect(centres.count == 5)
        for (x, y) in centres {
            let (px, py) = (Int(x), 300 - Int(y))
            let (seen, drawn) = (shot.color(x: px, y: py), atStep.color(x: px, y: py))
            #expect(seen != (255, 255, 255), "a crate at (\(x), \(y)) is missing")
            #expect(abs(Int(seen.red) - Int(drawn.red)) < 8 && abs(Int(seen.green) - Int(drawn.green)) < 8)
        }
        for (x, y) in starts where !centres.contains(where: { abs($0.0 - x) < 60 && abs($0.1 - y) < 60 }) {
            #expect(shot.color(x: Int(x), y: 300 - Int(y)) == (255, 255, 255), "(\(x), \(y)) should be empty now")
        }
    }

    /// The player driven through its controls, as a person would: the script clicks and
    /// types, then writes what the page showed into <pre id="results">.
    func drive(_ page: URL, _ script: String) throws -> [String: Any] {
        let object = try Chromium.results(
            of: """
                const $ = id => document.getElementById(id);
                const canvas = $("view"), ctx = canvas.getContext("2d");
                const count = test => {
                  const d = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
                  let n = 0;
                  for (let i = 0; i < d.length; i += 4) if (test(d[i], d[i + 1], d[i + 2])) n++;
                  return n;
                };
                const red = () => count((r, g, b) => r > 200 && g < 60 && b < 60);
                const green = () => count((r, g, b) => g > 150 && r < 60 && b < 60);
                \(script)
                """, in: page)
        #expect(object["error"] == nil, "\(object["error"] ?? "")")
        return object
    }

    @Test("The controls: scrub, step forward and back, speed and play in real time, contacts, hover")
    func controls() throws {
        let out = try drive(
            try cratesPage(),
            """
            const scrub = $("scrub");
            scrub.value = 120; scrub.dispatchEvent(new Event("input"));
            out.scrubbed = replay.state().step; out.clock = $("clock").textContent;
            $("forward").click(); out.forward = replay.state().step;
            $("back").click(); $("back").click(); out.back = replay.state().step;
            out.redWithout = red();
            $("contacts").click(); out.redWith = red();
            // Hover the first crate: its id and values show.
            const rect = canvas.getBoundingClientRect();
            canvas.dispatchEvent(new MouseEvent("mousemove", { clientX: rect.left + CRATE_X, clientY: rect.top + CRATE_Y }));
            out.tipHidden = $("tip").hidden; out.tip = $("tip").textContent;
            $("speed").value = "4"; $("speed").dispatchEvent(new Event("change"));
            scrub.value = 0; scrub.dispatchEvent(new Event("input"));
            $("play").click(); out.playing = replay.state().playing;
            await wait(150);
            const first = replay.state();
            await wait(150);
            const second = replay.state();
            out.moved = second.step - first.step; out.clockMoved = second.clock - first.clock;
            $("play").click(); out.paused = !replay.state().playing;
            """.replacingOccurrences(of: "CRATE_X", with: "\(try crateCentre().x)")
                .replacingOccurrences(of: "CRATE_Y", with: "\(try crateCentre().y)"))
        #expect(out["scrubbed"] as? Int == 120)
        #expect((out["clock"] as? String)?.contains("step 120 of 240") == true, "\(out["clock"] ?? "")")
        #expect((out["clock"] as? String)?.contains("t = 1.000 s") == true)
        #expect(out["forward"] as? Int == 121)
        #expect(out["back"] as? Int == 119)
        #expect(out["redWithout"] as? Int == 0)
        #expect((out["redWith"] as? Int ?? 0) > 10, "contact points are drawn in red: \(out["redWith"] ?? "")")
        #expect(out["tipHidden"] as? Bool == false)
        #expect((out["tip"] as? String)?.hasPrefix("0 (dynamic") == true, "\(out["tip"] ?? "")")
        #expect((out["tip"] as? String)?.contains("velocity") == true)
        #expect(out["playing"] as? Bool == true && out["paused"] as? Bool == true)
        // 4× real time: 480 steps a second of 1/120 s, by the page's own clock. The playhead
        // moves only when a frame or timer fires, and a loaded machine fires them late, so the
        // test compares the steps played between two readings with the page clock's time
        // between the same two moves (each step is rounded: ±1), not with the time waited.
        let moved = Double(out["moved"] as? Int ?? 0)
        let clockMoved = out["clockMoved"] as? Double ?? 0
        #expect(clockMoved > 0, "the playhead moved at least once in 150 ms")
        #expect(abs(moved - clockMoved / 1000 * 480) <= 1.01, "\(moved) steps in \(clockMoved) ms of page time")
    }

    /// Where crate 0 is at step 119 on the 300×300 canvas.
    func crateCentre() throws -> (x: Int, y: Int) {
        let row = rows(try Tool.sim("run", "crates", "--steps", "119", "--every", "119").stdout)[1]
        return (Int(Double(row[2])!), 300 - Int(Double(row[3])!))
    }

    @Test("The constraints toggle shows and hides a pendulum's joint")
    func constraintToggle() throws {
        let page = folder.appendingPathComponent("pendulum.html")
        let result = try Tool.sim("run", "Scenes/pendulum.json", "--steps", "60", "--format", "html", "-o", page.path)
        #expect(result.status == 0, "\(result.stderr)")
        let out = try drive(
            page,
            """
            out.greenWith = green();
            $("constraints").click(); out.greenWithout = green();
            """)
        // Some shapes may be green too: the joint adds green pixels.
        #expect((out["greenWith"] as? Int ?? 0) > (out["greenWithout"] as? Int ?? 0) + 100, "\(out)")
    }

    /// A UIKit-style scene on its 320 × 480 screen: the player's screenshot at `step` of a
    /// run of `steps`, and Cairo's frame of the same step.
    func onThePhone(_ scene: String, steps: Int, at step: Int) throws -> (player: FrameImage, cairo: FrameImage) {
        let page = folder.appendingPathComponent("\(scene).html")
        let made = try Tool.sim(
            "run", scene, "--steps", "\(steps)", "--format", "html", "--view", "0,0,320,480", "--width", "320", "-o",
            page.path)
        #expect(made.status == 0, "\(made.stderr)")
        return (
            try Chromium.screenshot(page.absoluteString + "#step=\(step)", width: 340, height: 600),
            try cairoFrame(scene, step: step, view: "0,0,320,480", width: 320)
        )
    }

    @Test("A behaviour scene plays y down, as on a phone: the heavy label lies on the bottom edge, as Cairo draws it")
    func behaviourScene() throws {
        let (shot, cairo) = try onThePhone("ui-heavy", steps: 400, at: 348)
        #expect(shot.color(x: 160, y: 460) != (255, 255, 255), "the label, at the bottom")
        #expect(shot.color(x: 160, y: 60) == (255, 255, 255), "nothing where it started")
        let share = shot.differingShare(from: cairo, width: 320, height: 480)
        #expect(share < 0.01, "\(share * 100) % of pixels differ from Cairo's frame")
    }

    /// The snake's bricks dim to alpha 0.5 while they touch an edge; at step 200, two or
    /// three do. Where the SVG draws one at half opacity, the player and Cairo show the
    /// brick's colour half way to white.
    @Test("The player shows ui-snake's dimmed bricks as Cairo draws them: half way to white")
    func dimmedBricks() throws {
        let (shot, cairo) = try onThePhone("ui-snake", steps: 240, at: 200)
        let svg = try Tool.sim("render", "ui-snake", "--step", "200", "--view", "0,0,320,480", "--width", "320").stdout
        let dimmed = svg.matches(of: /<polygon points="([^"]+)" fill="rgb\((\d+),(\d+),(\d+)\)" fill-opacity="0.5"/)
        try #require(dimmed.count >= 2, "bricks touching the edge at step 200")
        for brick in dimmed {
            let points = brick.1.split(separator: " ").map { $0.split(separator: ",").map { Double($0)! } }
            let (x, y) = (points.map { $0[0] }.reduce(0, +) / 4, points.map { $0[1] }.reduce(0, +) / 4)
            let full = (Int(brick.2)!, Int(brick.3)!, Int(brick.4)!)
            let half = ((full.0 + 255) / 2, (full.1 + 255) / 2, (full.2 + 255) / 2)
            for image in [shot, cairo] {
                let pixel = image.color(x: Int(x), y: Int(y))
                let c = (Int(pixel.red), Int(pixel.green), Int(pixel.blue))
                #expect(
                    abs(c.0 - half.0) <= 3 && abs(c.1 - half.1) <= 3 && abs(c.2 - half.2) <= 3,
                    "at \(Int(x)),\(Int(y)): \(c), the brick's \(full) half way to white is \(half)")
            }
        }
        let share = shot.differingShare(from: cairo, width: 320, height: 480)
        #expect(share < 0.01, "\(share * 100) % of pixels differ from Cairo's frame")
    }

    @Test("SVG rasterised by Chromium and PNG drawn by Cairo agree", arguments: ["crates", "joints", "chains"])
    func svgAgainstPNG(scene: String) throws {
        let svg = folder.appendingPathComponent("\(scene).svg")
        let written = try Tool.sim("render", scene, "--step", "30", "--width", "400", "-o", svg.path)
        #expect(written.status == 0, "\(written.stderr)")
        let text = try String(contentsOf: svg, encoding: .utf8)
        let height = Int(text.firstMatch(of: /height="(\d+)"/)!.1)!
        let png = folder.appendingPathComponent("\(scene).png")
        _ = try Tool.sim("render", scene, "--step", "30", "--width", "400", "--format", "png", "-o", png.path)
        let cairo = try FrameImage(contentsOfPNG: png.path)
        let chromium = try Chromium.screenshot(svg.absoluteString, width: 400, height: height)
        let share = chromium.differingShare(from: cairo, width: 400, height: min(height, cairo.height))
        #expect(share < 0.01, "\(scene): \(share * 100) % of pixels differ")
    }
}
