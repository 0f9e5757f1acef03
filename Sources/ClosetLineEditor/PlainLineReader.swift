/// Standard input that is not a terminal: no prompt, no echo, no history (sqlite3, psql and
/// redis-cli behave the same way).
public final class PlainLineReader: LineEditor {
    public init() {}

    public func readLine(prompt: String) -> LineInput {
        guard let line = Swift.readLine(strippingNewline: true) else { return .endOfInput }
        return .line(line)
    }

    public func remember(_ line: String) {}
    public func close() {}
}
