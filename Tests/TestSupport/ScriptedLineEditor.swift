import ClosetLineEditor

/// A line editor that replays inputs (lines, Ctrl-C, Ctrl-D) and records the prompts it was
/// shown and the lines it was asked to remember: the prompt loop's tests drive it.
public final class ScriptedLineEditor: LineEditor {
    public private(set) var inputs: [LineInput]
    public private(set) var prompts: [String] = []
    public private(set) var remembered: [String] = []
    public private(set) var closed = false

    public init(_ inputs: [LineInput]) { self.inputs = inputs }

    public func readLine(prompt: String) -> LineInput {
        prompts.append(prompt)
        return inputs.isEmpty ? .endOfInput : inputs.removeFirst()
    }

    public func remember(_ line: String) { remembered.append(line) }
    public func close() { closed = true }
}
