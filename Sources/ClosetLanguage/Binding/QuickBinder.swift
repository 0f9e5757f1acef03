import ClosetCore
import Foundation

/// The quick path from a seed script's statement to its invocation, without a syntax tree:
/// the two words of the command the session found last (`Session.lastCommand`, compared
/// as bytes), then `key=value` arguments as the quick parser reads them, each key one the
/// command declares (written as declared), each value converted as the binder converts it.
/// Anything else (other words, an unknown, repeated or secret `?` key, a value that does not
/// convert, a required key left out, a command that takes words or repeated keys) is
/// declined, and the statement is parsed, resolved and bound the general way: every
/// diagnostic still comes from one place. A replay of 100,000 `add` statements spent a third
/// of its instructions making and freeing their syntax trees and binding them. The session
/// uses it inside a transaction that has written (a seed script after its first row), where
/// binding before or after the check for other processes' commits reads the same store.
/// `QuickBinderTests` holds it to the general path on generated statements.
enum QuickBinder {
    /// The statement's invocation, or nil when the general path must read it.
    static func invocation(_ text: String, session: Session) -> Invocation? {
        guard let command = session.lastCommand, command.takesQuickStatements else { return nil }
        var bytes = text
        return bytes.withUTF8 { invocation(in: $0, of: text, command: command, session: session) }
    }

    /// `bytes` are `text`'s UTF-8.
    private static func invocation(
        in bytes: UnsafeBufferPointer<UInt8>, of text: String, command: QuickCommand, session: Session
    ) -> Invocation? {
        let count = bytes.count
        // A value's text is copied out of the statement's, which is UTF-8 already (decoding
        // its bytes checked them again); values start and end at ASCII bytes.
        func copied(_ range: Range<Int>) -> String {
            let utf8 = text.utf8
            return String(
                text[
                    utf8.index(
                        utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(
                            utf8.startIndex, offsetBy: range.upperBound)])
        }
        func blanksSkipped(from start: Int) -> Int {
            var position = start
            while position < count, QuickParser.isBlank(bytes[position]) { position += 1 }
            return position
        }
        // The command's two words, exactly as the general path found them last.
        let first = blanksSkipped(from: 0)
        guard let verbEnd = QuickParser.bareWordEnd(bytes, from: first), verbEnd < count,
            QuickParser.isBlank(bytes[verbEnd]), same(bytes, first..<verbEnd, command.utf8Words.0)
        else { return nil }
        let objectStart = blanksSkipped(from: verbEnd)
        guard let objectEnd = QuickParser.bareWordEnd(bytes, from: objectStart),
            objectEnd == count || QuickParser.isBlank(bytes[objectEnd]),
            same(bytes, objectStart..<objectEnd, command.utf8Words.1)
        else { return nil }

        // The keys given are kept as bits by their place (a quick command has at most 64).
        let binder = ArgumentBinder(session: session)
        var arguments: [BoundArgument] = []
        let ended: Int? = command.keys.withUnsafeBufferPointer { keys -> Int? in
            arguments.reserveCapacity(keys.count)
            var given: UInt64 = 0
            var position = objectEnd
            var last = objectEnd
            while true {
                position = blanksSkipped(from: position)
                guard position < count else { break }
                let start = position
                guard let keyEnd = QuickParser.bareWordEnd(bytes, from: start), keyEnd < count,
                    bytes[keyEnd] == .equals
                else { return nil }
                var index = 0
                while index < keys.count, !same(bytes, start..<keyEnd, keys[index].utf8) { index += 1 }
                guard index < keys.count, given & (1 << UInt64(index)) == 0,
                    let span = QuickParser.valueSpan(bytes, from: keyEnd + 1)
                else { return nil }
                let valueBytes = UnsafeBufferPointer(rebasing: bytes[span.text])
                if keys[index].isSecret, !span.isQuoted, valueBytes.count == 1, valueBytes[0] == UInt8(ascii: "?") {
                    return nil
                }
                guard
                    let value = keys[index].value(
                        valueBytes, isQuoted: span.isQuoted, range: SourceRange(keyEnd + 1, span.end), binder: binder,
                        text: { copied(span.text) })
                else { return nil }
                given |= 1 << UInt64(index)
                arguments.append(
                    BoundArgument(key: keys[index].name, value: value, range: SourceRange(start, span.end)))
                position = span.end
                last = span.end
            }
            for index in keys.indices where keys[index].isRequired && given & (1 << UInt64(index)) == 0 {
                return nil
            }
            return last
        }
        guard let last = ended else { return nil }
        let spec = command.spec
        if !spec.needsOneOf.isEmpty, !arguments.contains(where: { spec.needsOneOf.contains($0.key) }) { return nil }
        // The commands a quick statement reaches read their call only for its range.
        let call = CommandCall(words: [], arguments: [], range: SourceRange(first, last))
        return Invocation(session: session, spec: spec, call: call, parameters: [], arguments: arguments)
    }

    /// Whether the bytes in `range` are `utf8`.
    private static func same(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ utf8: [UInt8]) -> Bool {
        // Most keys differ in length from the one looked for: no bytes read for those.
        guard utf8.count == range.count else { return false }
        return utf8.withUnsafeBufferPointer { utf8 in
            guard !range.isEmpty else { return true }
            guard let left = utf8.baseAddress, let right = bytes.pointer(at: range.lowerBound) else { return false }
            return memcmp(left, right, range.count) == 0
        }
    }
}
