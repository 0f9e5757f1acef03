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
    /// The keys arguments given as bytes were last named from, and each one's key index (nil:
    /// not the command's): found once for an import, not compared as strings row by row.
    private var byteKeys: (names: [String], indices: [Int?]) = ([], [])

    private init(words: [String], spec: CommandSpec) {
        self.words = words
        self.spec = spec
        keys = spec.keys.map(QuickCommand.Key.init)
    }

    /// The request's invocation, or nil when the general path must bind it.
    static func invocation(_ request: CommandRequest, session: Session) -> Invocation? {
        guard request.parameters.isEmpty, request.attachments.isEmpty, request.user == nil,
            let binder = binder(request.words, session: session)
        else { return nil }
        return binder.invocation(
            request.arguments.count, session: session,
            keyIndex: { binder.keyIndex(request.arguments[$0].key, at: $0) },
            argument: { place, read in
                var text = request.arguments[place].value
                return text.withUTF8 { read($0) { request.arguments[place].value } }
            })
    }

    /// The invocation of `words` with arguments given as bytes where they lie (an imported
    /// CSV row's fields: a word or a date is read from them, only a text is made a string), or
    /// nil when the request must be made and bound the general way. Each argument's key is
    /// named by its place in `keys`: the arguments hold no strings to retain and release.
    static func invocation(
        _ words: [String], keys: [String], arguments: [(key: Int, value: UnsafeBufferPointer<UInt8>)],
        session: Session
    ) -> Invocation? {
        guard let binder = binder(words, session: session) else { return nil }
        if binder.byteKeys.names != keys {
            binder.byteKeys = (keys, keys.map { name in binder.keys.firstIndex { $0.name == name } })
        }
        let indices = binder.byteKeys.indices
        return binder.invocation(
            arguments.count, session: session, keyIndex: { indices[arguments[$0].key] },
            argument: { place, read in
                let value = arguments[place].value
                return read(value) { String(decoding: value, as: UTF8.self) }
            })
    }

    /// The index of the key `name` given in the argument at `place`: where the request bound
    /// before had it, else found (and kept for the next request).
    private func keyIndex(_ name: String, at place: Int) -> Int? {
        if place < lastOrder.count, lastOrder[place].name == name { return lastOrder[place].index }
        guard let found = keys.firstIndex(where: { $0.name == name }) else { return nil }
        if place < lastOrder.count {
            lastOrder[place] = (name, found)
        } else if place == lastOrder.count {
            lastOrder.append((name, found))
        }
        return found
    }

    /// The binder of the command `words` name: the last one made when it names the same.
    private static func binder(_ commandWords: [String], session: Session) -> RequestBinder? {
        if let last = session.lastRequest, last.words == commandWords { return last }
        var offset = 0
        let words = commandWords.map { text in
            defer { offset += text.utf8.count + 1 }
            return Word(text: text, isQuoted: false, range: SourceRange(offset, offset + text.utf8.count))
        }
        guard let (spec, rest) = try? session.registry.resolve(words), rest.isEmpty,
            spec.parameters.isEmpty, !spec.keysRepeat, spec.keys.count <= 64
        else { return nil }
        let binder = RequestBinder(words: commandWords, spec: spec)
        session.lastRequest = binder
        return binder
    }

    /// Binds `count` arguments: each one's key by `keyIndex` (nil: not the command's), its
    /// value handed by `argument` to a reader with its bytes and a way to make its text (when
    /// the value keeps it).
    private func invocation(
        _ count: Int, session: Session, keyIndex: (_ place: Int) -> Int?,
        argument: (_ place: Int, Reader) -> ArgumentValue?
    ) -> Invocation? {
        // The ranges `Session.run` gives the words it makes of a request: each word after the
        // last and a blank, a value quoted, so a diagnostic of the command names its argument.
        var offset = 0
        for word in words { offset += word.utf8.count + 1 }
        let binder = ArgumentBinder(session: session)
        var arguments: [BoundArgument] = []
        arguments.reserveCapacity(count)
        var taken: UInt64 = 0
        for place in 0..<count {
            guard let index = keyIndex(place), taken & (1 << UInt64(index)) == 0 else { return nil }
            let key = keys[index]
            let start = offset
            let valueStart = start + key.utf8.count + 1
            let value = argument(place) { bytes, text in
                offset = valueStart + bytes.count + 2 + 1
                return key.value(
                    bytes, isQuoted: true, range: SourceRange(valueStart, offset - 1), binder: binder, text: text)
            }
            guard let value else { return nil }
            taken |= 1 << UInt64(index)
            arguments.append(BoundArgument(key: key.name, value: value, range: SourceRange(start, offset - 1)))
        }
        for index in keys.indices where keys[index].isRequired && taken & (1 << UInt64(index)) == 0 {
            return nil
        }
        if !spec.needsOneOf.isEmpty, !arguments.contains(where: { spec.needsOneOf.contains($0.key) }) { return nil }
        let call = CommandCall(words: [], arguments: [], range: SourceRange(0, max(0, offset - 1)))
        return Invocation(session: session, spec: spec, call: call, parameters: [], arguments: arguments)
    }

    /// Reads one argument's value from its bytes and a way to make its text: the bound value,
    /// or nil when the general path must bind it.
    private typealias Reader = (UnsafeBufferPointer<UInt8>, () -> String) -> ArgumentValue?
}
