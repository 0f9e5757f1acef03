import ClosetCore

/// `.print <text>`: prints its words, separated by one blank (a script's own notes).
enum PrintCommand {
    static let spec = DotCommandSpec(
        name: ".print", summary: "print text", arguments: ["<text>"], examples: [".print \"seeding done\""],
        run: { invocation in
            let text = invocation.call.arguments.map(\.text).joined(separator: " ")
            // JSON output stays JSON: the text is one JSON string there.
            guard invocation.session.settings.format != .json else { return .text(JSONRenderer.string(text)) }
            return .text(TerminalText.visible(text, keepingTabs: true) + "\n")
        })
}
