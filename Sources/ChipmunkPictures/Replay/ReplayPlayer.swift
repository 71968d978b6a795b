/// The HTML replay player: one page with its style and script inline, fed by a JSON
/// header and the deflated, base64 trajectories that ``Playback`` writes.
///
/// The URL's fragment sets the starting state, for links and for tests:
/// `#step=600` (paused at step 600), `&contacts=1`, `&constraints=0`, `&speed=2`, `&play`.
/// The page also answers `window.replay` (`seek(step)`, `play()`, `pause()`,
/// `stepBy(n)`, `payload`: the trajectories as `decodeReplayPayload` read them, and
/// `state()`: the step shown, whether it plays, the speed, and `clock`, the
/// page's `performance.now()` when the playhead last moved), and sets `data-ready="1"` on `<body>` once the trajectories
/// are unpacked.
enum ReplayPlayer {
    /// The page's template (Page/replay-player.html), filled in once.
    private static let template = PageTemplate(PageFiles.replayPlayerHTML)

    static func page(title: String, header: String, data: String) -> String {
        template.filled([
            "title": PageTemplate.escaped(title), "style": PageFiles.replayPlayerCSS, "header": header, "data": data,
            // The payload's reader first: the player's script calls decodeReplayPayload.
            "script": PageFiles.replayPayloadJS + "\n" + PageFiles.replayPlayerJS,
        ])
    }
}
