import ClosetCore

/// `.mode [table|json|csv|line|box|markdown]`: the output format; with no word, print it.
enum ModeCommand {
    static let spec = ChoiceSetting.spec(
        ".mode", "set the output format, or print it", what: "mode", choices: OutputFormat.allCases,
        \.format, examples: [".mode json", ".mode"])
}
