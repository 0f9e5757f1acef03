import ClosetCore

/// The dot commands: shell settings and actions, never stored (SPEC §5). They belong to the
/// engine, not to a pack, and work the same whatever packs are installed.
enum ShellCommands {
    static let all: [DotCommandSpec] = [
        HelpCommand.spec, ReadCommand.spec, ModeCommand.spec, LangCommand.spec, EchoCommand.spec, BailCommand.spec,
        TimerCommand.spec, HeadersCommand.spec, PagerCommand.spec, ConfirmCommand.spec, WidthCommand.spec,
        ShowCommand.spec, PicturesCommand.spec,
        OutputCommand.spec, OutputCommand.once, PrintCommand.spec, ChangesCommand.spec, ShellEscapeCommand.spec,
        DirectoryCommand.spec, OpenCommand.spec, ClockCommand.spec, UserCommand.spec, VarsCommand.spec,
        StoreCommand.spec, CheckCommand.spec, RedactCommand.spec,
        DumpCommand.spec, QuitCommand.spec,
    ]
}
