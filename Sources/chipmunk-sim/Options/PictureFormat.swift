import ArgumentParser
import Foundation

/// What `render` draws.
enum PictureFormat: String, ExpressibleByArgument, CaseIterable {
    case svg, png, text

    /// The file extension that names the format.
    var fileExtension: String { self == .text ? "txt" : rawValue }

    /// The format a file's extension names (.svg, .png, .txt, in any case), if any.
    init?(extensionOf path: String) {
        guard path != "-" else { return nil }
        let suffix = URL(fileURLWithPath: path).pathExtension.lowercased()
        guard let format = Self.allCases.first(where: { $0.fileExtension == suffix }) else { return nil }
        self = format
    }
}
