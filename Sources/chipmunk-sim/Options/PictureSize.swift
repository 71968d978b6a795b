import ArgumentParser

/// `render --size WxH`: a picture's exact size, parsed once by ArgumentParser, whose error
/// says what is wrong with it.
struct PictureSize: ExpressibleByArgument, Equatable, CustomStringConvertible {
    /// The sides a picture may have: pixels for SVG and PNG, characters for text.
    static let sides = 1...20_000

    let width: Int
    let height: Int

    init?(argument: String) {
        guard let size = try? Self.parse(argument) else { return nil }
        self = size
    }

    private init(sides: (width: Int, height: Int)) { (width, height) = sides }

    var description: String { "\(width)x\(height)" }

    static func parse(_ argument: String) throws -> PictureSize {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
            throw ValidationError("--size must be WxH, such as 640x480 (got \(argument))")
        }
        guard sides.contains(width), sides.contains(height) else {
            throw ValidationError("--size must be from 1x1 to 20000x20000 (got \(argument))")
        }
        return PictureSize(sides: (width, height))
    }
}
