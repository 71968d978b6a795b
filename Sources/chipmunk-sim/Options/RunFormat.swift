import ArgumentParser

/// What `run` writes.
enum RunFormat: String, ExpressibleByArgument, CaseIterable {
    case csv, jsonl, html
}
