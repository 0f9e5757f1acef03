import Foundation

/// `.dump [--images <dir>]`: the store as a `.closet` script that recreates it exactly, as
/// sqlite3's `.dump` does. Each pack writes its own statements, pinning ids and times so
/// dump → replay → dump is byte-identical. Pictures are copied into `<dir>` and referenced by
/// path; without `--images` they are named in a comment instead (a script cannot carry pixels).
enum DumpCommand {
    static let spec = DotCommandSpec(
        name: ".dump", summary: "print a script that recreates the store (pictures copied with --images)",
        arguments: ["[--images <dir>]"], choices: ["--images"],
        examples: [".dump", ".dump --images backup/images"],
        run: { invocation in
            let words = invocation.call.arguments
            var folder: String?
            if let first = words.first {
                guard first.text == "--images", words.count == 2 else {
                    throw Diagnostic.usage(
                        ".dump [--images <dir>]", at: first.range.union(words.last?.range ?? first.range))
                }
                folder = words[1].text
            }
            let session = invocation.session
            return .text(
                try Dump.script(of: session, imageFolder: folder.map(session.host.pathForDump)) { name, bytes in
                    do {
                        try session.host.writeFile(at: name, bytes: bytes, creatingFolder: true)
                    } catch let error as Diagnostic {
                        throw error.at(words.last?.range)
                    }
                })
        })
}

/// Writing a store as statements: a header counting what is stored, then each pack's
/// statements in registry order.
package enum Dump {
    /// Pictures are copied into `imageFolder`; statements name them under `namedAs` when given
    /// (the folder as seen from where the dump is written), else under `imageFolder`.
    public static func script(
        of session: Session, imageFolder: String?, namedAs: String? = nil,
        copyImage: @escaping (String, [UInt8]) throws -> Void
    )
        throws -> String
    {
        let counts = session.packs.summaryCounts.map { $0.0.counted($0.1) }
        var writer = DumpWriter(imageFolder: imageFolder, namedAs: namedAs, writeFile: copyImage)
        writer.line("# closet dump: \(counts.joined(separator: ", "))")
        writer.line("# replay into an empty store: closet --store <dir> run <this file>")
        // All or nothing: the first statement that fails stops the restore and keeps none of it.
        writer.line(".bail on")
        // Every pack, made here if it was not yet: one that cannot start fails the dump rather
        // than leave its data out of it.
        for number in session.registry.packs.indices { try session.packs.state(ofPack: number).dump(into: &writer) }
        writer.line(".bail off")
        return writer.text
    }
}
