import ClosetCore

/// `.bail on|off`: stop a script at its first failing statement (and keep none of it).
enum BailCommand {
    static let spec = OnOffSetting.spec(".bail", "stop scripts at the first error, keeping nothing of them", \.bail)
}
