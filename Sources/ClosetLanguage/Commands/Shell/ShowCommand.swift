import ClosetCore

/// `.show`: every setting, one per line (sqlite3's `.show`).
enum ShowCommand {
    static let spec = DotCommandSpec(
        name: ".show", summary: "print every setting", examples: [".show"],
        run: { invocation in
            if let extra = invocation.call.arguments.first { throw Diagnostic.takesNoWords(".show", at: extra.range) }
            let session = invocation.session
            let settings = session.settings
            func onOff(_ value: Bool) -> String { value ? "on" : "off" }
            let rows: [(String, String)] = [
                ("mode", settings.format.rawValue),
                ("lang", settings.language.rawValue),
                ("headers", onOff(settings.headers)),
                ("echo", onOff(settings.echo)),
                ("bail", onOff(settings.bail)),
                ("timer", onOff(settings.timer)),
                ("pager", onOff(settings.pager)),
                ("confirm", onOff(settings.confirm)),
                ("width", settings.table.maxWidth.map(String.init) ?? "auto"),
                ("pictures", PicturesCommand.described(session)),
                ("output", settings.output ?? "stdout"),
                ("user", session.user),
                ("network", session.network.mode),
                ("deterministic", onOff(session.isDeterministic)),
                ("store", session.store.location),
                ("folder", session.host.currentDirectory),
            ]
            return .settings(rows.map { (name: $0.0, value: $0.1) })
        })
}
