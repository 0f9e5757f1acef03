import ClosetCore

/// `.print <text>`: prints its words, separated by one blank (a script's own notes).
enum PrintCommand {
    static let spec = DotCommandSpec(
        name: ".print", summary: "print text", arguments: ["<text>"], examples: [".print \"seeding done\""],
        run: { invocation in
            .text(invocation.call.arguments.map(\.text).joined(separator: " ") + "\n")
        })
}
