// A closed set of values with an English name (canonical, used in all output), the app's
// Korean name, and extra spellings accepted on input. Category, season and sort share it so
// parsing, help and completion treat every vocabulary the same way.

public protocol Vocabulary: CaseIterable, Hashable, Sendable where AllCases == [Self] {
    /// What the vocabulary is called in messages: "category", "season", "sort".
    static var vocabularyName: String { get }
    var englishName: String { get }
    var korean: String { get }
    /// Other accepted spellings (English aliases match case-insensitively).
    var aliases: [String] { get }
    /// Every lowercased spelling → its value, built once per type (see `makeSpellingTable`).
    static var spellingTable: [String: Self] { get }
}

extension Vocabulary {
    public var aliases: [String] { [] }

    /// Every spelling input accepts for this value: English, Korean, aliases.
    public var spellings: [String] { [englishName, korean] + aliases }

    /// Parses English names and aliases case-insensitively and Korean names exactly.
    public static func named(_ text: String) -> Self? {
        spellingTable[text] ?? spellingTable[text.lowercased()]
    }

    /// For each type's `static let spellingTable`: one dictionary lookup per value parsed.
    public static func makeSpellingTable() -> [String: Self] {
        var table: [String: Self] = [:]
        for value in allCases { for spelling in value.spellings { table[spelling.lowercased()] = value } }
        return table
    }
}
