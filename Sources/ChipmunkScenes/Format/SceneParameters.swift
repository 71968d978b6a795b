import Foundation

/// Named parameters in a scene file: `"parameters": {"gravityY": -1000}` declares one with
/// its default, and `{"$param": "gravityY"}` stands for its value wherever a number goes;
/// `{"$param": "gravityY", "scale": -1}` for its value times -1.
/// A sweep (`chipmunk-sim sweep`) sets them run by run.
///
/// Loading reports, with its path, a reference to an undeclared parameter, a value that is
/// not a finite number, an override for a parameter the file does not declare, and one for
/// a parameter no number refers to (it would change nothing). A declared parameter no
/// number refers to, not overridden, is a warning: a number written where its reference
/// was, say while trying a value.
package enum SceneParameters {
    /// The parameters a scene file declares, with their defaults (empty when it declares none).
    package static func declared(in data: Data, source: String) throws(SceneError) -> [String: Double] {
        guard case .object(let members)? = try tree(data, source: source) else { return [:] }
        guard let declaration = members.first(where: { $0.key == "parameters" })?.value else { return [:] }
        return try defaults(declaration, source: source)
    }

    /// The file as a tree when its root object has a `parameters` member; nil otherwise
    /// (after the JSON was checked). Most files declare none, and a tree of them is not
    /// needed: building one is most of reading a file (``JSONTree`` finds each value's kind
    /// by trying each, and every miss throws; a large file throws thousands of times).
    fileprivate static func tree(_ data: Data, source: String) throws(SceneError) -> JSONTree? {
        if let problem = SceneDescription.leniencyProblem(in: data) {
            throw SceneError(source: source, reason: problem)
        }
        do {
            // Checks the whole document, then looks only at the root's keys.
            guard try JSONDecoder().decode(DeclaresParameters.self, from: data).declares else { return nil }
            return try JSONDecoder().decode(JSONTree.self, from: data)
        } catch {
            throw SceneError(source: source, reason: SceneDescription.jsonProblem(in: data))
        }
    }

    /// Whether a document's root is an object with a `parameters` member.
    private struct DeclaresParameters: Decodable {
        let declares: Bool

        init(from decoder: any Decoder) {
            let root = try? decoder.container(keyedBy: AnyCodingKey.self)
            declares = root?.contains(AnyCodingKey(stringValue: "parameters")) ?? false
        }
    }

    fileprivate static func defaults(_ declaration: JSONTree, source: String) throws(SceneError) -> [String: Double] {
        guard case .object(let members) = declaration else {
            throw SceneError(
                source: source, location: "parameters",
                reason: "must be an object of names and default numbers, such as {\"stiffness\": 100}")
        }
        var values: [String: Double] = [:]
        for (name, value) in members {
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw SceneError(
                    source: source, location: "parameters",
                    reason: "'\(name.excerpt())' is not a parameter name: use letters, digits and _")
            }
            guard let number = value.number, number.isFinite else {
                throw SceneError(
                    source: source, location: "parameters.\(name.excerpt())", reason: "must be a finite number")
            }
            values[name] = number
        }
        return values
    }
}

/// A scene file parsed once, whose runs differ only in their parameters: a sweep makes each
/// run's ``SceneDescription`` from it, without reading the file's JSON again (for the 52 KB
/// of `pyramid-topple.json`, reading it was 49 % of a one-step run).
package struct SceneTemplate: Sendable {
    /// The file's name, in errors.
    package let source: String
    private let data: Data
    /// The file's members, its `parameters` declaration removed; nil when it declares none.
    private let members: [(key: String, value: JSONTree)]?
    /// The declared parameters and their defaults.
    package let declared: [String: Double]
    /// The first key given twice in an object, if any: reported after the file decodes, as
    /// ``SceneDescription/decode(_:source:parameters:)`` always has.
    private let repeatedKey: String?

    /// Parses a scene file; its declaration of parameters is checked here.
    package init(_ data: Data, source: String) throws(SceneError) {
        self.source = source
        self.data = data
        let root = try SceneParameters.tree(data, source: source)
        if case .object(var members)? = root, let index = members.firstIndex(where: { $0.key == "parameters" }) {
            declared = try SceneParameters.defaults(members[index].value, source: source)
            members.remove(at: index)
            self.members = members
        } else {
            declared = [:]
            members = nil
        }
        repeatedKey = DuplicateKeys.first(in: Array(data))
    }

    /// The parameters that the file's top-level `key` refers to (`{"$param": NAME}` anywhere
    /// in its value), such as the one a parameterized `timeStep` names.
    package func parameters(referencedBy key: String) -> Set<String> {
        func names(in tree: JSONTree) -> Set<String> {
            switch tree {
            case .object(let members):
                var found = Set<String>()
                for (key, value) in members {
                    if key == "$param", case .string(let name) = value { found.insert(name) }
                    found.formUnion(names(in: value))
                }
                return found
            case .array(let items): return items.reduce(into: Set<String>()) { $0.formUnion(names(in: $1)) }
            default: return []
            }
        }
        return members?.filter { $0.key == key }.reduce(into: Set<String>()) { $0.formUnion(names(in: $1.value)) }
            ?? []
    }

    /// The scene with `overrides` set (the other parameters keep their defaults).
    package func description(parameters overrides: [String: Double] = [:]) throws(SceneError) -> SceneDescription {
        do {
            var warnings: [String] = []
            let plain = try plainJSON(overrides: overrides, warnings: &warnings)
            var scene = try JSONDecoder().decode(SceneDescription.self, from: plain)
            scene.warnings = warnings
            if let repeatedKey {
                throw SceneError(
                    source: source, location: repeatedKey, reason: "appears twice in one object; give each key once")
            }
            return scene
        } catch let error as SceneError {
            throw error
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                if let problem = WholeNumbers.firstProblem(in: data, keys: SceneDescription.wholeNumberKeys) {
                    throw SceneError(source: source, reason: problem)
                }
                throw SceneError(source: source, reason: SceneDescription.jsonProblem(in: data))
            }
            throw SceneError(decoding: error, source: source)
        } catch {
            throw SceneError(source: source, reason: "\(error)")
        }
    }

    /// Checks `overrides` as ``description(parameters:)`` does (each one declared, finite,
    /// and referred to by some number), without decoding the scene.
    package func check(parameters overrides: [String: Double]) throws(SceneError) {
        var warnings: [String] = []
        _ = try substituted(overrides: overrides, warnings: &warnings)
    }

    /// The file as plain JSON: every reference replaced by its parameter's value
    /// (`overrides` first, then the default), and the declaration removed. A file that
    /// declares no parameters comes back unchanged.
    private func plainJSON(overrides: [String: Double], warnings: inout [String]) throws(SceneError) -> Data {
        guard let replaced = try substituted(overrides: overrides, warnings: &warnings) else { return data }
        do {
            return try JSONEncoder().encode(replaced)
        } catch {
            throw SceneError(source: source, reason: "\(error)")
        }
    }

    /// The file's tree with `overrides` set; nil for a file that declares no parameters.
    private func substituted(overrides: [String: Double], warnings: inout [String]) throws(SceneError) -> JSONTree? {
        guard let members else {
            if let name = overrides.keys.sorted().first {
                throw SceneError(
                    source: source, reason: "sets parameter '\(name.excerpt())', but the scene declares no parameters")
            }
            return nil
        }
        var values = declared
        for (name, value) in overrides {
            guard values[name] != nil else {
                let known = values.keys.sorted().map { $0.excerpt() }.joined(separator: ", ")
                throw SceneError(
                    source: source, location: "parameters",
                    reason: "has no parameter '\(name.excerpt())' to set (it declares: \(known))")
            }
            guard value.isFinite else {
                throw SceneError(
                    source: source, location: "parameters.\(name.excerpt())", reason: "must be finite (got \(value))")
            }
            values[name] = value
        }
        var used = Set<String>()
        let replaced = try JSONTree.object(members).replacingReferences(values, used: &used, path: "", source: source)
        for unused in values.keys.sorted() where !used.contains(unused) {
            let problem = "is declared, but no number in the scene refers to it ({\"$param\": \"\(unused.excerpt())\"})"
            if overrides[unused] != nil {
                throw SceneError(
                    source: source, location: "parameters.\(unused.excerpt())",
                    reason: problem + ", so setting it changes nothing")
            }
            warnings.append("\(source): parameters.\(unused.excerpt()): \(problem); its value is not used")
        }
        return replaced
    }
}
