import Foundation

/// Joins physical lines into statements: a line ending in `\` (outside a comment) continues
/// on the next. Used by scripts, stdin and the prompt alike.
package struct LineAssembler {
    private var pending: [String] = []
    private var firstLine = 0

    public init() {}

    /// Whether a statement is half-typed (the prompt shows the continuation prompt).
    package var isContinuing: Bool { !pending.isEmpty }

    /// Adds a line; returns a complete statement when this line ends one.
    public mutating func add(_ line: String, lineNumber: Int) -> StatementSource? {
        let continues = Self.continues(line)
        // A line that is a whole statement (nearly every one) goes straight through.
        if pending.isEmpty, !continues { return StatementSource(line: line, firstLine: lineNumber) }
        if pending.isEmpty { firstLine = lineNumber }
        pending.append(line)
        if continues { return nil }
        return finish()
    }

    /// Whatever is pending (a script that ends on a `\` line).
    package mutating func finish() -> StatementSource? {
        guard !pending.isEmpty else { return nil }
        defer { pending = [] }
        return StatementSource(lines: pending, firstLine: firstLine)
    }

    /// Drops a half-typed statement (Ctrl-C at a continuation prompt).
    public mutating func reset() { pending = [] }

    static func continues(_ line: String) -> Bool { continues(utf8: line.utf8) }

    /// Whether a line given as UTF-8 ends in a `\` outside a comment.
    static func continues(utf8 line: some BidirectionalCollection<UInt8>) -> Bool {
        guard line.last == .backslash else { return false }
        var quote: UInt8?
        var escaped = false
        for byte in line.dropLast() {
            if let open = quote {
                if escaped {
                    escaped = false
                } else if byte == .backslash && open == .doubleQuote {
                    escaped = true
                } else if byte == open {
                    quote = nil
                }
            } else if byte == .doubleQuote || byte == .singleQuote {
                quote = byte
            } else if byte == .hash {
                return false
            }
        }
        return true
    }
}

extension String {
    /// The lines of a script: split on LF, a CR before it dropped, no empty last line for a
    /// final newline. Linear in the text (Foundation's `enumerateLines` bridges through
    /// NSString on Linux and was most of the cost of a 100,000-line seed).
    package var scriptLines: [String] {
        var lines: [String] = []
        forEachScriptLine { line in
            lines.append(line)
            return true
        }
        return lines
    }

    /// The text at `range` of the UTF-8 (a line `forEachScriptLine(in:)` found, a value the
    /// quick binder read), copied: the text is UTF-8 already (decoding the bytes checked them
    /// again: a tenth of replaying a seed script with Korean descriptions), and lines and values
    /// start and end at ASCII bytes, so their ends are scalar boundaries.
    package func utf8Copy(_ range: Range<Int>) -> String {
        String(
            self[
                utf8.index(
                    utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(
                        utf8.startIndex, offsetBy: range.upperBound)])
    }

    /// The same lines, one at a time, until `body` returns false: a long script is never held
    /// twice (as text and as lines).
    package func forEachScriptLine(_ body: (String) -> Bool) {
        var text = self
        text.withUTF8 { bytes in String.forEachScriptLine(in: bytes) { body(utf8Copy($0)) } }
    }

    /// The place of each line of a script's UTF-8 (as `scriptLines` splits it), until `body`
    /// returns false.
    static func forEachScriptLine(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>) -> Bool) {
        guard let base = bytes.baseAddress else { return }
        var start = 0
        // Each line's end found by `memchr` (a byte at a time was a fifth of reading a seed
        // script's lines).
        while start < bytes.count, let found = memchr(base + start, Int32(UInt8.newline), bytes.count - start) {
            let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            let end = index > start && bytes[index - 1] == .carriageReturn ? index - 1 : index
            guard body(start..<end) else { return }
            start = index + 1
        }
        if start < bytes.count { _ = body(start..<bytes.count) }
    }
}
