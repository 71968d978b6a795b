import ChipmunkPictures
import Foundation

/// Headless Chromium (Debian's `chromium-headless-shell` or `chromium`, which
/// scripts/test.sh installs), to look at pages and SVG files as a person's browser shows
/// them.
enum Chromium {
    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "no headless Chromium: install Debian's chromium-headless-shell (scripts/test.sh does)"
        }
    }

    static func executable() throws -> URL {
        for name in ["chromium-headless-shell", "chromium"] {
            for folder in ["/usr/bin", "/usr/lib/chromium"] {
                let url = URL(fileURLWithPath: folder).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: url.path) { return url }
            }
        }
        throw Missing()
    }

    /// The page's screenshot, `width`×`height` CSS pixels at scale 1.
    static func screenshot(_ url: String, width: Int, height: Int) throws -> FrameImage {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("shot-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try run(["--screenshot=\(file.path)", "--window-size=\(width),\(height)", url])
        return try FrameImage(contentsOfPNG: file.path)
    }

    /// The page's DOM once its scripts have run.
    static func dom(_ url: String) throws -> String {
        try run(["--dump-dom", url])
    }

    /// Runs `script` in `page` once its own scripts have run, and returns the JSON object
    /// the script leaves in `out` (an error it throws comes back as `error`). The script
    /// may `await` and reads the page as a person's browser shows it; `wait(ms)` pauses.
    static func results(of script: String, in page: URL) throws -> [String: Any] {
        let html = try String(contentsOf: page, encoding: .utf8)
        let driven = page.deletingLastPathComponent().appendingPathComponent("driven-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: driven) }
        let driver = """
            <pre id="results"></pre>
            <script>
            (async () => {
              const wait = ms => new Promise(r => setTimeout(r, ms));
              while (document.body.dataset.ready !== "1" && !document.body.dataset.error) await wait(10);
              const out = {};
              \(script)
              document.getElementById("results").textContent = JSON.stringify(out);
            })().catch(e => { document.getElementById("results").textContent = JSON.stringify({ error: String(e) }); });
            </script>
            </body>
            """
        try Data(html.replacingOccurrences(of: "</body>", with: driver).utf8).write(to: driven)
        let dom = try Self.dom(driven.absoluteString)
        guard let start = dom.range(of: "<pre id=\"results\">"),
            let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex)
        else {
            return ["error": "no results in the page: \(dom.suffix(500))"]
        }
        let json = String(dom[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">")
        return try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
    }

    private static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = try executable()
        // Root in a container has no user namespaces for the sandbox; virtual time lets
        // the page's timers and animation frames run to completion before the capture.
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                "--virtual-time-budget=10000",
                "--user-data-dir=\(NSTemporaryDirectory())chromium-tests-\(UUID().uuidString)",
            ] + arguments
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: out) }
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return try String(contentsOf: out, encoding: .utf8)
    }
}

extension FrameImage {
    /// The share of pixels in the top-left `width`×`height` whose colours differ by more
    /// than `threshold` in some channel.
    func differingShare(from other: FrameImage, width: Int, height: Int, threshold: Int = 64) -> Double {
        var differing = 0
        for y in 0..<height {
            for x in 0..<width {
                let (a, b) = (color(x: x, y: y), other.color(x: x, y: y))
                if abs(Int(a.red) - Int(b.red)) > threshold || abs(Int(a.green) - Int(b.green)) > threshold
                    || abs(Int(a.blue) - Int(b.blue)) > threshold
                {
                    differing += 1
                }
            }
        }
        return Double(differing) / Double(width * height)
    }
}
