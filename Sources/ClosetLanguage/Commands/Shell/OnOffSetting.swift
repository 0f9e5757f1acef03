import ClosetCore

/// `.echo`, `.bail`, `.timer` and `.pager`: one `on|off` setting each.
enum OnOffSetting {
    static func spec(
        _ name: String, _ summary: String, _ setting: WritableKeyPath<Session.Settings, Bool> & Sendable
    ) -> DotCommandSpec {
        DotCommandSpec(
            name: name, summary: summary, arguments: ["[on|off]"],
            choices: ["on", "off"], examples: ["\(name) on", name],
            run: { invocation in
                // With no word, the value, as `.mode` prints its own.
                guard !invocation.call.arguments.isEmpty else {
                    return .settings([
                        (String(name.dropFirst()), invocation.session.settings[keyPath: setting] ? "on" : "off")
                    ])
                }
                invocation.session.settings[keyPath: setting] = try invocation.onOff()
                return .nothing
            })
    }
}
