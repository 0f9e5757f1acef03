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
/// `QuickBinderTests` holds it to the general path on generated statements. A long script's
/// statements are read on a second thread (`read(_:shape:into:)`, `ScriptReadAhead`), and only
/// made into invocations on the session's.
enum QuickBinder {
    /// One argument of a statement read on a long script's reading thread (`ScriptReadAhead`),
    /// holding no object: a text is the place of its bytes in the statement, made a string where
    /// the statement runs. Objects one thread makes and the other frees had each core write the
    /// other's memory (reference counts, the allocator's chunks) for every statement.
    struct PlacedArgument: Sendable {
        /// The key by its place among the command's.
        let key: Int
        let range: SourceRange
        let value: PlacedValue
    }

    /// A statement's arguments read on that thread, and the statement's range.
    typealias PlacedStatement = (arguments: ArraySlice<PlacedArgument>, range: SourceRange)

    enum PlacedValue: Sendable {
        case text(Range<Int>)
        /// The term's code among its vocabulary's (`Terms.single`).
        case term(Int)
        case date(Date)
    }

    /// The statement's invocation, or nil when the general path must read it.
    static func invocation(_ text: String, session: Session) -> Invocation? {
        guard let command = session.lastCommand, command.takesQuickStatements else { return nil }
        let shape = command.shape
        let binder = ArgumentBinder(session: session)
        var arguments: [ReadArgument] = []
        var source = text
        let range = source.withUTF8 { bytes in
            read(bytes, shape: shape, into: &arguments) { index, value, span, valueRange, argumentRange in
                shape.keys[index].read(value, isQuoted: span.isQuoted, range: valueRange, binder: binder) {
                    text.utf8Copy(span.text)
                }
                .map { ReadArgument(key: index, range: argumentRange, read: $0) }
            }
        }
        guard let range else { return nil }
        return invocation(
            command, range: range, session: session,
            arguments: arguments.lazy.map { (key: $0.key, range: $0.range, value: shape.keys[$0.key].made($0.read)) })
    }

    /// The invocation of a statement read on another thread (`placed`) for the command the
    /// session found last (`ScriptReadAhead` hands over only those); `text` is the statement.
    static func invocation(
        _ text: String, placed: some Collection<PlacedArgument>, range: SourceRange, session: Session
    ) -> Invocation? {
        guard let command = session.lastCommand, command.takesQuickStatements else { return nil }
        let keys = command.shape.keys
        return invocation(
            command, range: range, session: session,
            arguments: placed.lazy.map { argument -> (key: Int, range: SourceRange, value: ArgumentValue) in
                let value: ArgumentValue =
                    switch argument.value {
                    case .text(let bytes): .text(text.utf8Copy(bytes))
                    case .term(let code): keys[argument.key].made(.term(code))
                    case .date(let date): .date(date)
                    }
                return (argument.key, argument.range, value)
            })
    }

    /// The arguments of a statement's bytes as a statement of the command `shape` is, read
    /// without a binder (on another thread than the session's: a value only the binder
    /// converts is declined), appended to `placed`; the statement's range, or nil (nothing
    /// appended) when the general path must read it.
    static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, shape: QuickCommand.Shape, into placed: inout [PlacedArgument]
    ) -> SourceRange? {
        read(bytes, shape: shape, into: &placed) { index, value, span, valueRange, argumentRange -> PlacedArgument? in
            let read = shape.keys[index].read(
                value, isQuoted: span.isQuoted, range: valueRange, binder: nil, text: { "" })
            return switch read {
            case .text: PlacedArgument(key: index, range: argumentRange, value: .text(span.text))
            case .term(let code): PlacedArgument(key: index, range: argumentRange, value: .term(code))
            case .date(let date): PlacedArgument(key: index, range: argumentRange, value: .date(date))
            case .made, nil: nil
            }
        }
    }

    private static func invocation(
        _ command: QuickCommand, range: SourceRange, session: Session,
        arguments: some Collection<(key: Int, range: SourceRange, value: ArgumentValue)>
    ) -> Invocation {
        let keys = command.shape.keys
        var bound: [BoundArgument] = []
        bound.reserveCapacity(arguments.count)
        for argument in arguments {
            bound.append(BoundArgument(key: keys[argument.key].name, value: argument.value, range: argument.range))
        }
        // The commands a quick statement reaches read their call only for its range.
        let call = CommandCall(words: [], arguments: [], range: range)
        return Invocation(session: session, spec: command.spec, call: call, parameters: [], arguments: bound)
    }

    /// Reads the statement in `bytes` as one of the command `shape` is: each argument handed to
    /// `read` (its key's place, its value's bytes and where they lie, the value's range and the
    /// argument's), which gives what it is kept as, or nil to decline. The statement's range, or
    /// nil (nothing appended) when the general path must read it.
    private static func read<Argument>(
        _ bytes: UnsafeBufferPointer<UInt8>, shape: QuickCommand.Shape, into arguments: inout [Argument],
        _ read: (
            _ key: Int, _ value: UnsafeBufferPointer<UInt8>, _ span: (text: Range<Int>, isQuoted: Bool, end: Int),
            _ valueRange: SourceRange, _ argumentRange: SourceRange
        ) -> Argument?
    ) -> SourceRange? {
        let count = bytes.count
        let firstArgument = arguments.count
        func declined() -> SourceRange? {
            arguments.removeSubrange(firstArgument...)
            return nil
        }
        func blanksSkipped(from start: Int) -> Int {
            var position = start
            while position < count, QuickParser.isBlank(bytes[position]) { position += 1 }
            return position
        }
        // The command's two words, exactly as the general path found them last.
        let first = blanksSkipped(from: 0)
        guard let verbEnd = QuickParser.bareWordEnd(bytes, from: first), verbEnd < count,
            QuickParser.isBlank(bytes[verbEnd]), same(bytes, first..<verbEnd, shape.utf8Words.0)
        else { return nil }
        let objectStart = blanksSkipped(from: verbEnd)
        guard let objectEnd = QuickParser.bareWordEnd(bytes, from: objectStart),
            objectEnd == count || QuickParser.isBlank(bytes[objectEnd]),
            same(bytes, objectStart..<objectEnd, shape.utf8Words.1)
        else { return nil }

        // The keys given are kept as bits by their place (a quick command has at most 64).
        var given: UInt64 = 0
        let ended: Int? = shape.keys.withUnsafeBufferPointer { keys -> Int? in
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
                    let argument = read(
                        index, valueBytes, span, SourceRange(keyEnd + 1, span.end), SourceRange(start, span.end))
                else { return nil }
                given |= 1 << UInt64(index)
                arguments.append(argument)
                position = span.end
                last = span.end
            }
            for index in keys.indices where keys[index].isRequired && given & (1 << UInt64(index)) == 0 {
                return nil
            }
            return last
        }
        guard let last = ended else { return declined() }
        if !shape.needsOneOf.isEmpty,
            !shape.keys.indices.contains(where: {
                given & (1 << UInt64($0)) != 0 && shape.needsOneOf.contains(shape.keys[$0].name)
            })
        {
            return declined()
        }
        return SourceRange(first, last)
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
