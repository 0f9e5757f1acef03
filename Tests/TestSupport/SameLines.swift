/// The lines where two transcripts expected to be equal differ, each beside its counterpart:
/// a failing comparison records these, naming the lines instead of two whole transcripts.
package func differingLines(_ actual: String, _ expected: String) -> [(actual: Substring, expected: Substring)] {
    guard actual != expected else { return [] }
    let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
    let b = expected.split(separator: "\n", omittingEmptySubsequences: false)
    return zip(a, b).filter { $0 != $1 }.map { (actual: $0, expected: $1) }
}
