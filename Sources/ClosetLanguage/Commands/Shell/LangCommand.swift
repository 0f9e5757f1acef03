import ClosetCore

/// `.lang [en|ko]`: the language people read output in (headers, labels, vocabulary values,
/// the apps' own words); with no word, print it. Input takes both languages always.
enum LangCommand {
    static let spec = DotCommandSpec(
        name: ".lang", summary: "show headers, labels and values in English or in the apps' Korean, or print it",
        arguments: ["[" + OutputLanguage.allCases.map(\.rawValue).joined(separator: "|") + "]"],
        choices: OutputLanguage.allCases.map(\.rawValue), examples: [".lang ko", ".lang"],
        run: { invocation in
            let words = invocation.call.arguments
            guard let word = words.first else {
                return .settings([("lang", invocation.session.settings.language.rawValue)])
            }
            if words.count > 1 { throw Diagnostic.usage(invocation.spec.usage, at: words[1].range) }
            guard let language = OutputLanguage(rawValue: word.text.lowercased()) else {
                throw Diagnostic.unknown(
                    "language", word.text, at: word.range, among: OutputLanguage.allCases.map(\.rawValue),
                    hint: "use en or ko")
            }
            invocation.session.settings.language = language
            return .nothing
        })
}
