import ClosetCore

/// `.confirm [on|off]`: whether `remove` typed at the prompt asks first (scripts never ask).
enum ConfirmCommand {
    static let spec = OnOffSetting.spec(".confirm", "ask before remove at the prompt (scripts never ask)", \.confirm)
}
