import Foundation
import Testing

@testable import ChipmunkPictures

/// The pages' files (Replay/Page, embedded at build time) and the template that fills them.
@Suite struct PageTemplateTests {
    @Test("A template is filled in one pass: a value that holds a slot's name is not filled again")
    func onePass() {
        let template = PageTemplate("<title>{{title}}</title><p>{{body}}</p>")
        #expect(
            template.filled(["title": "{{body}}", "body": "a & b"]) == "<title>{{body}}</title><p>a & b</p>")
        #expect(PageTemplate.escaped("<a & b>") == "&lt;a &amp; b&gt;")
    }

    @Test("The embedded files are Replay/Page's, byte for byte")
    func embeddedFilesAreTheFiles() throws {
        let folder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ChipmunkPictures/Replay/Page")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == PageFiles.all.keys.sorted())
        for name in names {
            #expect(
                PageFiles.all[name].map { Data($0.utf8) } == (try Data(contentsOf: folder.appendingPathComponent(name)))
            )
        }
    }
}
