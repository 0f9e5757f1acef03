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
        // Joined by hand: the first generic `joined` over a slice looks up conformances at run
        // time (half a million instructions of every start); the error's spelling is made
        // only when there is an error.
        var alternatives = ""
        for word in words { alternatives += (alternatives.isEmpty ? "" : "|") + word }
        return DotCommandSpec(
            name: name, summary: summary, arguments: ["[" + alternatives + "]"], choices: words,
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
                    let spelled =
                        words.count > 1
                        ? words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "") : words.joined()
                    throw Diagnostic.unknown(what, word.text, at: word.range, among: words, hint: "use " + spelled)
                }
                invocation.session.settings[keyPath: setting] = choice
                return .nothing
            })
    }
}
