import ClosetCore

/// The quick path from a command given as data (`CommandRequest`: an import's row, a served
/// form) to its invocation, without words to resolve and bind: the command found once by its
/// words, each argument's key found by its place in the request before (an import gives the
/// same keys in the same order row after row), each value read as the quick binder reads a
/// seed statement's (`QuickCommand.Key.value`). What it cannot bind the same way (words after
/// the command, a key not declared or given twice, a value that does not convert, a required
/// key left out, pictures, another user) it declines, and the request is
/// bound the general way, which says what is wrong: every diagnostic still comes from one
/// place. An import of 100,000 rows spent a fifth of its time binding them one by one.
/// `RequestBinderTests` holds it to the general path.
final class RequestBinder {
    let words: [String]
    let spec: CommandSpec
    private let keys: [QuickCommand.Key]
    /// The key index of each argument of the request bound last, by the argument's place.
    private var lastOrder: [(name: String, index: Int)] = []

    private init(words: [String], spec: CommandSpec) {
        self.words = words
        self.spec = spec
        keys = spec.keys.map(QuickCommand.Key.init)
    }

    /// The request's invocation, or nil when the general path must bind it.
    static func invocation(_ request: CommandRequest, session: Session) -> Invocation? {
        guard request.parameters.isEmpty, request.attachments.isEmpty, request.user == nil else { return nil }
        let binder: RequestBinder
        if let last = session.lastRequest, last.words == request.words {
            binder = last
        } else {
            var offset = 0
            let words = request.words.map { text in
                defer { offset += text.utf8.count + 1 }
                return Word(text: text, isQuoted: false, range: SourceRange(offset, offset + text.utf8.count))
            }
            guard let (spec, rest) = try? session.registry.resolve(words), rest.isEmpty,
                spec.parameters.isEmpty, !spec.keysRepeat, spec.keys.count <= 64
            else { return nil }
            binder = RequestBinder(words: request.words, spec: spec)
            session.lastRequest = binder
        }
        return binder.invocation(request, session: session)
    }

    private func invocation(_ request: CommandRequest, session: Session) -> Invocation? {
        // The ranges `Session.run` gives the words it makes of a request: each word after the
        // last and a blank, a value quoted, so a diagnostic of the command names its argument.
        var offset = 0
        for word in request.words { offset += word.utf8.count + 1 }
        let binder = ArgumentBinder(session: session)
        var arguments: [BoundArgument] = []
        arguments.reserveCapacity(request.arguments.count)
        var given: UInt64 = 0
        for (place, (key, text)) in request.arguments.enumerated() {
            let index: Int
            if place < lastOrder.count, lastOrder[place].name == key {
                index = lastOrder[place].index
            } else {
                guard let found = keys.firstIndex(where: { $0.name == key }) else { return nil }
                index = found
                if place < lastOrder.count {
                    lastOrder[place] = (key, index)
                } else if place == lastOrder.count {
                    lastOrder.append((key, index))
                }
            }
            guard given & (1 << UInt64(index)) == 0 else { return nil }
            let start = offset
            let valueStart = start + key.utf8.count + 1
            offset = valueStart + text.utf8.count + 2 + 1
            let range = SourceRange(start, offset - 1)
            var copy = text
            let value = copy.withUTF8 { bytes in
                keys[index].value(
                    bytes, isQuoted: true, range: SourceRange(valueStart, offset - 1), binder: binder, text: { text })
            }
            guard let value else { return nil }
            given |= 1 << UInt64(index)
            arguments.append(BoundArgument(key: keys[index].name, value: value, range: range))
        }
        for index in keys.indices where keys[index].isRequired && given & (1 << UInt64(index)) == 0 {
            return nil
        }
        if !spec.needsOneOf.isEmpty, !arguments.contains(where: { spec.needsOneOf.contains($0.key) }) { return nil }
        let call = CommandCall(words: [], arguments: [], range: SourceRange(0, max(0, offset - 1)))
        return Invocation(session: session, spec: spec, call: call, parameters: [], arguments: arguments)
    }
}
