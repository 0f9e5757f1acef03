import ClosetCore

/// `.echo on|off`: print each statement before its output (as golden transcripts do).
enum EchoCommand {
    static let spec = OnOffSetting.spec(".echo", "print each statement before running it", \.echo)
}
