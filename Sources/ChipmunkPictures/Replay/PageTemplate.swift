/// A page with `{{name}}` slots (the files in `Replay/Page`), filled in one pass: a value
/// put in a slot is never searched for slots itself.
package struct PageTemplate {
    /// The text between the slots, and each slot's name: `text`, `name`, `text`, … `text`.
    private let pieces: [Substring]

    package init(_ text: String) {
        var pieces: [Substring] = []
        var rest = text[...]
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            pieces.append(rest[..<open.lowerBound])
            pieces.append(rest[open.upperBound..<close.lowerBound])
            rest = rest[close.upperBound...]
        }
        pieces.append(rest)
        self.pieces = pieces
    }

    /// The page with each slot replaced by its value. A slot without a value is a
    /// programming error (the templates are the package's own files).
    package func filled(_ values: [String: String]) -> String {
        var page = ""
        for (index, piece) in pieces.enumerated() {
            if index.isMultiple(of: 2) {
                page += piece
            } else if let value = values[String(piece)] {
                page += value
            } else {
                fatalError("PageTemplate: no value for the slot {{\(piece)}}")
            }
        }
        return page
    }

    /// `text` for HTML: `&`, `<` and `>` as entities.
    package static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
