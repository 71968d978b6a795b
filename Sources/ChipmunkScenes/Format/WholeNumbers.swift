import Foundation

/// Finds a number that must be whole (a step, a count) but is not.
///
/// Foundation's decoder reports `"step": 5.5` or `"step": 1e300`, read as an `Int`, as
/// "The given data was not valid JSON", with no path: a file that is valid JSON was
/// called invalid, and the value was not named. This reads the (valid) JSON and names the
/// first such value under one of `keys`, such as `inputs[0].step`.
package enum WholeNumbers {
    package static func firstProblem(in data: Data, keys: Set<String>) -> String? {
        guard let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return nil
        }
        return problem(in: root, path: "", keys: keys)
    }

    private static func problem(in value: Any, path: String, keys: Set<String>) -> String? {
        if let object = value as? [String: Any] {
            for key in object.keys.sorted() {
                let child = path.isEmpty ? key : "\(path).\(key)"
                if keys.contains(key), let number = object[key] as? NSNumber, !isWhole(number) {
                    let tooLarge = number.doubleValue.rounded() == number.doubleValue
                    return "\(child): expected a whole number, found \(number)\(tooLarge ? " (too large)" : "")"
                }
                if let found = problem(in: object[key]!, path: child, keys: keys) { return found }
            }
        } else if let array = value as? [Any] {
            for (index, element) in array.enumerated() {
                if let found = problem(in: element, path: "\(path)[\(index)]", keys: keys) { return found }
            }
        }
        return nil
    }

    private static func isWhole(_ number: NSNumber) -> Bool {
        let value = number.doubleValue
        // Int64's bounds as doubles: -2^63 is one, 2^63 is just past Int.max.
        return value.rounded() == value && value >= -0x1p63 && value < 0x1p63
    }
}
