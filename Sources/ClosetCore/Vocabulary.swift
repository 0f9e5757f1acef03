import Foundation

extension Vocabulary {
    /// The term as output shows it: English in JSON, csv and line; for people in the
    /// session's language.
    public var shown: FieldValue { .localized(englishName, korean: korean) }
}

/// A closed set of words with an English name (canonical, used in all output), a Korean name,
/// and extra spellings accepted on input. Every pack's vocabularies are this one data type, so
/// binding, help and completion treat them all the same way.
public struct VocabularyInfo: Sendable, Hashable {
    public struct Term: Sendable, Hashable {
        /// The term's position in the vocabulary: what bound values carry.
        public var code: Int
        package var english: String
        public var korean: String
        /// Other accepted spellings (English aliases match case-insensitively).
        public var aliases: [String]

        /// Every spelling input accepts: English, Korean, aliases.
        package var spellings: [String] { [english, korean] + aliases }

        public init(code: Int, english: String, korean: String, aliases: [String]) {
            self.code = code
            self.english = english
            self.korean = korean
            self.aliases = aliases
        }
    }

    /// What the vocabulary is called in messages and help: "size", "sort".
    public var name: String
    public var terms: [Term]
    /// Usage lines spell the terms out (`new|old`) instead of naming the vocabulary
    /// (`<size>`): for short vocabularies whose terms say more than their name.
    public var spelledOutInUsage: Bool
    /// Every lowercased spelling → code, made when a value is first parsed: lowercasing
    /// Korean text costs thousands of instructions a spelling, and building every pack's
    /// tables at start-up was a tenth of a trivial statement's.
    private let lookup: SpellingLookup

    public init(name: String, terms: [Term], spelledOutInUsage: Bool = false) {
        self.name = name
        self.terms = terms
        self.spelledOutInUsage = spelledOutInUsage
        lookup = SpellingLookup(terms)
    }

    /// English names and aliases match case-insensitively, Korean names exactly.
    public func term(named text: String) -> Term? {
        guard let code = lookup.code(of: text) else { return nil }
        return terms[code]
    }

    /// The code of the term spelled `text` (as `term(named:)`), without copying the term.
    public func code(named text: String) -> Int? { lookup.code(of: text) }

    /// Every spelling `code(named:)` finds, lowercased, as UTF-8, with its term's code: for
    /// reading a value where it lies in a statement's bytes (`QuickCommand`).
    package var lowercasedSpellings: [(utf8: [UInt8], code: Int)] { lookup.spellings() }

    public static func == (a: VocabularyInfo, b: VocabularyInfo) -> Bool {
        a.name == b.name && a.terms == b.terms && a.spelledOutInUsage == b.spelledOutInUsage
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(terms)
        hasher.combine(spelledOutInUsage)
    }

    /// Every spelling of every term, English first then Korean: for help and completion.
    package var spellings: [String] { terms.flatMap(\.spellings) }

    /// `outer (외투), top (상의), ... accessory (악세사리, 액세서리)`.
    public var summary: String {
        terms.map { term in
            var text = "\(term.english) (\(term.korean)"
            for alias in term.aliases { text += ", \(alias)" }
            return text + ")"
        }.joined(separator: ", ")
    }

    /// `<size>` or `new|old`.
    public var placeholder: String {
        spelledOutInUsage ? terms.map(\.english).joined(separator: "|") : "<\(name)>"
    }
}

/// A pack's Swift enum over a vocabulary: its cases, in declaration order, are the terms,
/// and each case's raw value is its position (0, 1, 2, ...): bound values carry that code.
public protocol Vocabulary: CaseIterable, Hashable, Sendable, RawRepresentable
where AllCases == [Self], RawValue == Int {
    /// What the vocabulary is called in messages: "size", "sort".
    static var vocabularyName: String { get }
    /// Whether usage lines spell the terms out (see `VocabularyInfo.spelledOutInUsage`).
    static var spelledOutInUsage: Bool { get }
    var englishName: String { get }
    var korean: String { get }
    /// Other accepted spellings (English aliases match case-insensitively).
    var aliases: [String] { get }
    /// The vocabulary as data, built once per type (see `makeInfo`).
    static var info: VocabularyInfo { get }
}

extension Vocabulary {
    public var aliases: [String] { [] }
    public static var spelledOutInUsage: Bool { false }

    /// Every spelling input accepts for this value: English, Korean, aliases.
    package var spellings: [String] { [englishName, korean] + aliases }

    /// The term's position in `allCases` (its raw value).
    @inlinable public var code: Int { rawValue }

    /// The value a bound code stands for.
    @inlinable public init?(code: Int) { self.init(rawValue: code) }

    /// Parses English names and aliases case-insensitively and Korean names exactly.
    public static func named(_ text: String) -> Self? {
        info.term(named: text).flatMap { Self(code: $0.code) }
    }

    /// For each type's `static let info`. Inlinable, so each pack's copy is specialized for its
    /// type: the unspecialized one looked up the type's collection conformances at run time,
    /// a scan of every conformance in the executable for each vocabulary at start-up.
    @inlinable public static func makeInfo() -> VocabularyInfo {
        var terms: [VocabularyInfo.Term] = []
        for value in allCases {
            precondition(value.rawValue == terms.count, "\(Self.self): raw values must be the cases' positions")
            terms.append(
                VocabularyInfo.Term(
                    code: terms.count, english: value.englishName, korean: value.korean, aliases: value.aliases))
        }
        return VocabularyInfo(name: vocabularyName, terms: terms, spelledOutInUsage: spelledOutInUsage)
    }
}

/// A vocabulary's spellings by lowercased text, built on first use (under a lock: a
/// vocabulary is a constant any thread may parse with).
final class SpellingLookup: @unchecked Sendable {
    private let terms: [VocabularyInfo.Term]
    private let lock = NSLock()
    private var table: [String: Int]?

    init(_ terms: [VocabularyInfo.Term]) { self.terms = terms }

    func code(of text: String) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        let table = built()
        return table[text] ?? table[text.lowercasedQuickly]
    }

    /// The table's spellings and codes (each spelling once, with the code the table gives it).
    func spellings() -> [(utf8: [UInt8], code: Int)] {
        lock.lock()
        defer { lock.unlock() }
        return built().map { (Array($0.key.utf8), $0.value) }.sorted {
            $0.code != $1.code ? $0.code < $1.code : $0.utf8.lexicographicallyPrecedes($1.utf8)
        }
    }

    private func built() -> [String: Int] {
        if let table { return table }
        var built: [String: Int] = [:]
        for term in terms { for spelling in term.spellings { built[spelling.lowercasedQuickly] = term.code } }
        table = built
        return built
    }
}
