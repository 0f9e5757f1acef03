import ClosetLineEditor

/// A line editor that replays inputs (lines, Ctrl-C, Ctrl-D) and records the prompts it was
/// shown and the lines it was asked to remember: the prompt loop's tests drive it.
package final class ScriptedLineEditor: LineEditor {
    package private(set) var inputs: [LineInput]
    package private(set) var prompts: [String] = []
    package private(set) var remembered: [String] = []
    package private(set) var closed = false

    package init(_ inputs: [LineInput]) { self.inputs = inputs }

    package func readLine(prompt: String) -> LineInput {
        prompts.append(prompt)
        return inputs.isEmpty ? .endOfInput : inputs.removeFirst()
    }

    package func remember(_ line: String) { remembered.append(line) }
    package func close() { closed = true }
}
