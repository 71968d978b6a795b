/// "3 steps", "1 step": a number and its noun, plural unless the number is one (a regular
/// plural, or `plural` when given), for the package's messages and summaries.
///
/// ```swift
/// counted(1, "checkpoint")              // "1 checkpoint"
/// counted(6, "checkpoint")              // "6 checkpoints"
/// counted(2, "body", plural: "bodies")  // "2 bodies"
/// ```
package func counted(_ number: Int, _ noun: String, plural: String? = nil) -> String {
    "\(number) \(number == 1 ? noun : plural ?? noun + "s")"
}
