import ClosetCore

/// `.headers [on|off]`: the header row of table, box, markdown and csv output.
enum HeadersCommand {
    static let spec = OnOffSetting.spec(".headers", "show the header row of tables and csv", \.headers)
}
