import ClosetCore

/// `.cd [<folder>]`: relative paths after it (`.read`, `image=`, `.output`, `.shell`) are
/// taken from the folder; alone, prints the folder.
enum DirectoryCommand {
    static let spec = DotCommandSpec(
        name: ".cd", summary: "change the working folder, or print it", arguments: ["[<folder>]"], takesPath: true,
        examples: [".cd ~/wardrobe", ".cd"],
        run: { invocation in
            let words = invocation.call.arguments
            let host = invocation.session.host
            guard let word = words.first else { return .settings([("folder", host.currentDirectory)]) }
            guard words.count == 1 else { throw Diagnostic.usage(invocation.spec.usage, at: words[1].range) }
            do {
                try host.changeDirectory(to: word.text)
            } catch let error as Diagnostic {
                throw error.at(word.range)
            }
            return .nothing
        })
}
