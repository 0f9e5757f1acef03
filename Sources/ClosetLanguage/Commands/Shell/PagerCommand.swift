import ClosetCore

/// `.pager on|off`: at a terminal, output taller than the screen goes through `$PAGER` (else
/// `less`, else `more`). Pipes and files never page.
enum PagerCommand {
    static let spec = OnOffSetting.spec(".pager", "page output taller than the terminal", \.pager)
}
