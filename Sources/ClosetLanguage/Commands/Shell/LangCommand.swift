import ClosetCore

/// `.lang [en|ko]`: the language people read output in (headers, labels, vocabulary values,
/// the apps' own words); with no word, print it. Input takes both languages always.
enum LangCommand {
    static let spec = ChoiceSetting.spec(
        ".lang", "show headers, labels and values in English or in the apps' Korean, or print it", what: "language",
        choices: OutputLanguage.allCases, \.language, examples: [".lang ko", ".lang"])
}
