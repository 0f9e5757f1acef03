import ClosetCore

/// `.echo`, `.bail` and `.timer`: one `on|off` setting each.
enum OnOffSetting {
    static func spec(
        _ name: String, _ summary: String, _ setting: WritableKeyPath<Session.Settings, Bool> & Sendable
    ) -> DotCommandSpec {
        DotCommandSpec(
            name: name, summary: summary, arguments: ["on|off"], choices: ["on", "off"], examples: ["\(name) on"],
            run: { invocation in
                invocation.session.settings[keyPath: setting] = try invocation.onOff()
                return .nothing
            })
    }
}
