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
        guard case .object(let members) = try tree(data, source: source) else { return [:] }
        guard let declaration = members.first(where: { $0.key == "parameters" })?.value else { return [:] }
        return try defaults(declaration, source: source)
    }

    /// The file with every reference replaced by its parameter's value (`overrides` first,
    /// then the default), and the `parameters` member removed: a plain scene file. A file
    /// that declares no parameters comes back unchanged.
    package static func substitute(
        in data: Data, overrides: [String: Double], source: String, warnings: inout [String]
    ) throws(SceneError) -> Data {
        let root = try tree(data, source: source)
        guard case .object(var members) = root, let index = members.firstIndex(where: { $0.key == "parameters" })
        else {
            if let name = overrides.keys.sorted().first {
                throw SceneError(
                    source: source, reason: "sets parameter '\(name)', but the scene declares no parameters")
            }
            return data
        }
        var values = try defaults(members[index].value, source: source)
        for (name, value) in overrides {
            guard values[name] != nil else {
                let known = values.keys.sorted().joined(separator: ", ")
                throw SceneError(
                    source: source, location: "parameters",
                    reason: "has no parameter '\(name)' to set (it declares: \(known))")
            }
            guard value.isFinite else {
                throw SceneError(
                    source: source, location: "parameters.\(name)", reason: "must be finite (got \(value))")
            }
            values[name] = value
        }
        members.remove(at: index)
        var used = Set<String>()
        let replaced = try JSONTree.object(members).replacingReferences(values, used: &used, path: "", source: source)
        for unused in values.keys.sorted() where !used.contains(unused) {
            let problem = "is declared, but no number in the scene refers to it ({\"$param\": \"\(unused)\"})"
            if overrides[unused] != nil {
                throw SceneError(
                    source: source, location: "parameters.\(unused)",
                    reason: problem + ", so setting it changes nothing")
            }
            warnings.append("\(source): parameters.\(unused): \(problem); its value is not used")
        }
        do {
            return try JSONEncoder().encode(replaced)
        } catch {
            throw SceneError(source: source, reason: "\(error)")
        }
    }

    private static func tree(_ data: Data, source: String) throws(SceneError) -> JSONTree {
        do {
            return try JSONDecoder().decode(JSONTree.self, from: data)
        } catch {
            throw SceneError(source: source, reason: "not valid JSON: \(SceneDescription.syntaxProblem(in: data))")
        }
    }

    private static func defaults(_ declaration: JSONTree, source: String) throws(SceneError) -> [String: Double] {
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
                    reason: "'\(name)' is not a parameter name: use letters, digits and _")
            }
            guard let number = value.number, number.isFinite else {
                throw SceneError(source: source, location: "parameters.\(name)", reason: "must be a finite number")
            }
            values[name] = number
        }
        return values
    }
}
