import ChipmunkPictures

/// The live page: one self-contained HTML file (its CSS and JavaScript inline, no network
/// access beyond its own server), from the files in `Page`, embedded at build time.
package enum LivePage {
    private static let template = PageTemplate(LivePageFiles.liveHTML)

    /// The page every viewer loads.
    package static let html = template.filled(["style": LivePageFiles.liveCSS, "script": LivePageFiles.liveJS])
}
