import ClosetCore

/// `.quit` / `.exit`: stop reading statements.
enum QuitCommand {
    static let spec = DotCommandSpec(
        name: ".quit", aliases: [".exit"], summary: "leave closet", examples: [".quit"],
        run: { invocation in
            if let extra = invocation.call.arguments.first {
                throw Diagnostic.takesNoWords(".quit", at: extra.range)
            }
            invocation.session.quitRequested = true
            return .nothing
        })
}
