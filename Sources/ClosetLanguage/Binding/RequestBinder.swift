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
    /// The arguments of the request being bound, read before they are made (kept for the next).
    private var scratch: [ReadArgument] = []

    /// The bytes the command's words take with a blank after each: where its first argument
    /// starts in the statement `Session.run` makes of a request.
    private let commandLength: Int

    private init(words: [String], spec: CommandSpec) {
        self.words = words
        self.spec = spec
        keys = spec.keys.map(QuickCommand.Key.init)
        commandLength = words.reduce(0) { $0 + $1.utf8.count + 1 }
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

    /// A command's arguments given as bytes (as `invocation(_:keys:arguments:session:)` takes
    /// them) read with no session: what an import's reading thread makes of each CSV record,
    /// ahead of the thread that runs the adds (`invocation(_:read:length:session:)`). It reads
    /// only what it was made with, so it may run on any thread, and what it reads holds no
    /// object both threads change (`QuickCommand.ReadValue`: made values freed on the other
    /// thread fought the reading thread's allocator, and made the import slower than binding
    /// on one thread). Nil when a key must be read with the session (a count, a reference:
    /// `QuickCommand.Reading.converted`) or the general way.
    struct ByteBinding: Sendable {
        fileprivate let keys: [QuickCommand.Key]
        fileprivate let indices: [Int?]
        fileprivate let commandLength: Int
        fileprivate let needsOneOf: [String]

        /// Appends the arguments read to `read`; the length of the statement they make, or nil
        /// (nothing appended) when the request must be bound on the session's thread.
        func read(
            _ arguments: [(key: Int, value: UnsafeBufferPointer<UInt8>)], into read: inout [ReadArgument]
        ) -> Int? {
            RequestBinder.read(
                arguments.count, keys: keys, commandLength: commandLength, needsOneOf: needsOneOf, binder: nil,
                keyIndex: { indices[arguments[$0].key] },
                argument: { place, reader in
                    let value = arguments[place].value
                    return reader(value) { String(decoding: value, as: UTF8.self) }
                }, into: &read)
        }
    }

    /// The binding of `words` with arguments named by their place in `keys`, for another
    /// thread; nil when one of the keys at `given` (those arguments may name) cannot be read
    /// there.
    static func byteBinding(
        _ words: [String], keys: [String], given: [Int], session: Session
    ) -> ByteBinding? {
        guard let binder = binder(words, session: session) else { return nil }
        let indices = keys.map { name in binder.keys.firstIndex { $0.name == name } }
        for case let index? in given.map({ indices[$0] }) {
            switch binder.keys[index].reading {
            case .text, .term, .date: continue
            case .converted, .general: return nil
            }
        }
        return ByteBinding(
            keys: binder.keys, indices: indices, commandLength: binder.commandLength,
            needsOneOf: binder.spec.needsOneOf)
    }

    /// The invocation of `words` with arguments read already (`ByteBinding`), or nil when
    /// `words` name no command the quick path takes.
    static func invocation(
        _ words: [String], read: some Collection<ReadArgument>, length: Int, session: Session
    ) -> Invocation? {
        guard let binder = binder(words, session: session) else { return nil }
        return binder.invocation(read, length: length, session: session)
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

    /// Binds `count` arguments with the session (a converted value is read through its binder).
    private func invocation(
        _ count: Int, session: Session, keyIndex: (_ place: Int) -> Int?,
        argument: (_ place: Int, Reader) -> QuickCommand.ReadValue?
    ) -> Invocation? {
        defer { scratch.removeAll(keepingCapacity: true) }
        guard
            let length = Self.read(
                count, keys: keys, commandLength: commandLength, needsOneOf: spec.needsOneOf,
                binder: ArgumentBinder(session: session), keyIndex: keyIndex, argument: argument, into: &scratch)
        else { return nil }
        return invocation(scratch, length: length, session: session)
    }

    /// The invocation of arguments read.
    private func invocation(_ read: some Collection<ReadArgument>, length: Int, session: Session) -> Invocation {
        var arguments: [BoundArgument] = []
        arguments.reserveCapacity(read.count)
        for argument in read {
            let key = keys[argument.key]
            arguments.append(
                BoundArgument(key: key.name, value: key.made(argument.read), range: argument.range))
        }
        let call = CommandCall(words: [], arguments: [], range: SourceRange(0, length))
        return Invocation(session: session, spec: spec, call: call, parameters: [], arguments: arguments)
    }

    /// Reads `count` arguments into `read`: each one's key by `keyIndex` (nil: not the
    /// command's), its value handed by `argument` to a reader with its bytes and a way to make
    /// its text (when the value keeps it). A value only `binder` converts is declined without
    /// one. The length of the statement they make, or nil (nothing appended) when the general
    /// path must bind them.
    private static func read(
        _ count: Int, keys: [QuickCommand.Key], commandLength: Int, needsOneOf: [String],
        binder: ArgumentBinder?, keyIndex: (_ place: Int) -> Int?,
        argument: (_ place: Int, Reader) -> QuickCommand.ReadValue?, into read: inout [ReadArgument]
    ) -> Int? {
        let first = read.count
        func declined() -> Int? {
            read.removeSubrange(first...)
            return nil
        }
        // The ranges `Session.run` gives the words it makes of a request: each word after the
        // last and a blank, a value quoted, so a diagnostic of the command names its argument.
        var offset = commandLength
        var taken: UInt64 = 0
        for place in 0..<count {
            guard let index = keyIndex(place), taken & (1 << UInt64(index)) == 0 else { return declined() }
            let key = keys[index]
            let start = offset
            let valueStart = start + key.utf8.count + 1
            let value = argument(place) { bytes, text in
                offset = valueStart + bytes.count + 2 + 1
                return key.read(
                    bytes, isQuoted: true, range: SourceRange(valueStart, offset - 1), binder: binder, text: text)
            }
            guard let value else { return declined() }
            taken |= 1 << UInt64(index)
            read.append(ReadArgument(key: index, range: SourceRange(start, offset - 1), read: value))
        }
        for index in keys.indices where keys[index].isRequired && taken & (1 << UInt64(index)) == 0 {
            return declined()
        }
        if !needsOneOf.isEmpty, !read[first...].contains(where: { needsOneOf.contains(keys[$0.key].name) }) {
            return declined()
        }
        return max(0, offset - 1)
    }

    /// Reads one argument's value from its bytes and a way to make its text, or nil when the
    /// general path must bind it.
    private typealias Reader = (UnsafeBufferPointer<UInt8>, () -> String) -> QuickCommand.ReadValue?
}

/// One argument read from its bytes: its key (by its place among the command's), its range in
/// the statement the request makes, and what its value was read as.
struct ReadArgument: Sendable {
    let key: Int
    let range: SourceRange
    let read: QuickCommand.ReadValue
}
