import ClosetCore

/// `.mode` and `.lang`: a setting that is one of a few words; with no word, print it.
enum ChoiceSetting {
    /// `choices` is the caller's `allCases`: asking a generic `Choice` for them looks up its
    /// associated type at run time, the slow way, at every start.
    static func spec<Choice: RawRepresentable & Sendable>(
        _ name: String, _ summary: String, what: String, choices: [Choice],
        _ setting: WritableKeyPath<Session.Settings, Choice> & Sendable,
        examples: [String]
    ) -> DotCommandSpec where Choice.RawValue == String {
        let words = choices.map { $0.rawValue }
        let spelled =
            words.count > 1 ? words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "") : words.joined()
        return DotCommandSpec(
            name: name, summary: summary, arguments: ["[" + words.joined(separator: "|") + "]"], choices: words,
            examples: examples,
            run: { invocation in
                let arguments = invocation.call.arguments
                guard let word = arguments.first else {
                    return .settings([
                        (String(name.dropFirst()), invocation.session.settings[keyPath: setting].rawValue)
                    ])
                }
                if arguments.count > 1 { throw Diagnostic.usage(invocation.spec.usage, at: arguments[1].range) }
                guard let choice = Choice(rawValue: word.text.lowercased()) else {
                    throw Diagnostic.unknown(what, word.text, at: word.range, among: words, hint: "use " + spelled)
                }
                invocation.session.settings[keyPath: setting] = choice
                return .nothing
            })
    }
}
