import ClosetCore

/// `.timer on|off`: print how long each statement took.
enum TimerCommand {
    static let spec = OnOffSetting.spec(".timer", "print the time each statement takes", \.timer)
}
