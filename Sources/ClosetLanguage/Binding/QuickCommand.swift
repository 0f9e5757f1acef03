import ClosetCore
import Foundation

/// The last command the session found by its two words as written (`add <entity>`), with
/// what the quick binder needs to read its statements where they lie: each key's name as
/// bytes and how its value is read. A seed script names the same command 100,000 times;
/// looking at its keys' kinds (and copying them) per statement was a fifth of the quick path.
final class QuickCommand {
    let words: (String, String)
    let spec: CommandSpec
    /// Whether a command of three words or more starts with `words`: a statement with more
    /// words is then resolved again.
    let startsLongerCommand: Bool
    /// What the quick binder reads its statements with. Made on the first quick statement
    /// (most commands found are never bound quickly), on the session's thread.
    private(set) lazy var shape = Shape(words: words, spec: spec)
    /// Whether the quick binder reads this command's statements: only `key=value` arguments,
    /// each key at most once, and few enough keys to keep as bits.
    private(set) lazy var takesQuickStatements =
        spec.parameters.isEmpty && !spec.keysRepeat && spec.keys.count <= 64

    /// What reading a statement of the command needs, never changed once made. A long
    /// script's reading thread (`ScriptReadAhead`) reads statements with one made for it: had
    /// both threads retained the same keys for every statement, their counts' cache lines would
    /// have passed between the cores each time (that cost more than the thread saved).
    final class Shape: Sendable {
        /// The command's two words as bytes, compared with a statement's.
        let utf8Words: ([UInt8], [UInt8])
        /// In the order of the command's keys: a read argument names its key by its place.
        let keys: [Key]
        let needsOneOf: [String]

        init(words: (String, String), spec: CommandSpec) {
            utf8Words = (Array(words.0.utf8), Array(words.1.utf8))
            keys = spec.keys.map(Key.init)
            needsOneOf = spec.needsOneOf
        }
    }

    /// How a key's value is read from its bytes.
    enum Reading {
        case text
        /// A term of a vocabulary, from its lowercased spellings.
        case term(Terms)
        case date
        /// Every other kind, through the binder's own conversion of a word.
        case converted(ValueKind)
        /// Left to the general binder: a whole number its key's rule must admit (`amount=`).
        case general
    }

    /// A vocabulary as the binders read it: its lowercased spellings, and `single[code]` the
    /// codes array a value of that one term binds to, made once (an array per value was two
    /// allocations a statement). A class: reading a key's term copied (and retained) all three.
    final class Terms: Sendable {
        let vocabulary: String
        let spellings: [(utf8: [UInt8], code: Int)]
        let single: [[Int]]

        init(vocabulary: String, spellings: [(utf8: [UInt8], code: Int)], single: [[Int]]) {
            self.vocabulary = vocabulary
            self.spellings = spellings
            self.single = single
        }
    }

    /// A class: the binders read a key's fields where it lies (a copied struct retained its
    /// name, bytes and vocabulary for every argument of every statement, a tenth of an import).
    final class Key: Sendable {
        let name: String
        let utf8: [UInt8]
        let reading: Reading
        let isRequired: Bool
        let isSecret: Bool

        init(_ key: KeySpec) {
            name = key.name
            utf8 = Array(key.name.utf8)
            isRequired = key.isRequired
            isSecret = key.isSecret
            switch key.kind {
            case _ where key.rule != nil: reading = .general
            case .text, .paths, .name: reading = .text
            case .date: reading = .date
            case .vocabulary(let info, _):
                // One word is one term whether the key takes one or many.
                reading = .term(
                    Terms(
                        vocabulary: info.name, spellings: info.lowercasedSpellings, single: info.terms.map { [$0.code] }
                    ))
            case .count, .size, .path, .newID, .reference: reading = .converted(key.kind)
            }
        }

        /// The value the binder gives these bytes, or nil when the general binder must read
        /// them (it then says what is wrong). `text` makes the value's text, only when it is kept.
        func value(
            _ bytes: UnsafeBufferPointer<UInt8>, isQuoted: Bool, range: SourceRange, binder: ArgumentBinder,
            text: () -> String
        ) -> ArgumentValue? {
            read(bytes, isQuoted: isQuoted, range: range, binder: binder, text: text).map(made)
        }

        /// What these bytes are read as, or nil when the general binder must read them. Without
        /// a binder (on another thread than the session's) a value only the binder converts is
        /// declined.
        func read(
            _ bytes: UnsafeBufferPointer<UInt8>, isQuoted: Bool, range: SourceRange, binder: ArgumentBinder?,
            text: () -> String
        ) -> ReadValue? {
            switch reading {
            case .text:
                // A required text given empty: the general binder names it missing.
                if isRequired && bytes.isEmpty { return nil }
                return .text(text())
            case .term(let terms):
                return QuickCommand.code(bytes, among: terms.spellings).map(ReadValue.term)
            case .date:
                return Timestamp.parse(bytes: bytes).map(ReadValue.date)
            case .converted(let kind):
                guard let binder else { return nil }
                let word = Word(text: text(), isQuoted: isQuoted, range: range)
                guard let converted = try? binder.convert([word], kind: kind, what: name),
                    !(isRequired && converted.isEmptyText)
                else { return nil }
                return .made(converted)
            case .general:
                return nil
            }
        }

        /// The value `read` gave, made.
        func made(_ read: ReadValue) -> ArgumentValue {
            switch read {
            case .text(let text): .text(text)
            case .term(let code):
                if case .term(let terms) = reading {
                    .terms(vocabulary: terms.vocabulary, codes: terms.single[code])
                } else {
                    preconditionFailure("a term read for a key that reads none")
                }
            case .date(let date): .date(date)
            case .made(let value): value
            }
        }
    }

    /// What a key's value was read as (`Key.read`), made an `ArgumentValue` on the session's
    /// thread: where it was read on another, it holds no object both threads would change (a
    /// term's codes array is the session's, not shared with the reading thread; a text is
    /// kept by the row it becomes, not freed on the other thread).
    enum ReadValue: Sendable {
        case text(String)
        /// The term's code among its vocabulary's (`Terms.single`).
        case term(Int)
        case date(Date)
        case made(ArgumentValue)
    }

    init(words: (String, String), spec: CommandSpec, startsLongerCommand: Bool) {
        self.words = words
        self.spec = spec
        self.startsLongerCommand = startsLongerCommand
    }

    /// The code of the term spelled by `bytes`, as `VocabularyInfo.code(named:)` finds it,
    /// or nil (the general path then decides): the bytes exactly, or ASCII text lowercased.
    static func code(_ bytes: UnsafeBufferPointer<UInt8>, among spellings: [(utf8: [UInt8], code: Int)]) -> Int? {
        var isASCII = true
        for byte in bytes where byte >= 0x80 { isASCII = false }
        for spelling in spellings where spelling.utf8.count == bytes.count {
            var index = 0
            while index < bytes.count {
                var byte = bytes[index]
                if isASCII, byte >= 0x41, byte <= 0x5A { byte |= 0x20 }
                guard byte == spelling.utf8[index] else { break }
                index += 1
            }
            if index == bytes.count { return spelling.code }
        }
        return nil
    }
}
