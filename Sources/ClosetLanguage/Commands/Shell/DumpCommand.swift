import Foundation

/// `.dump [--images <dir>]`: the store as a `.closet` script that recreates it exactly, as
/// sqlite3's `.dump` does. Each pack writes its own statements, pinning ids and times so
/// dump → replay → dump is byte-identical. Pictures are copied into `<dir>` and referenced by
/// path; without `--images` they are named in a comment instead (a script cannot carry pixels).
enum DumpCommand {
    static let usage = ".dump [--images <dir> [--skip-damaged]]"
    static let spec = DotCommandSpec(
        name: ".dump",
        summary:
            "print a script that recreates the store (pictures copied with --images; --skip-damaged leaves damaged ones out)",
        arguments: ["[--images <dir>]"], choices: ["--images", "--skip-damaged"],
        examples: [".dump", ".dump --images backup/images", ".dump --images backup/images --skip-damaged"],
        run: { invocation in
            let words = invocation.call.arguments
            var folder: String?
            var skipDamaged = false
            var index = 0
            while index < words.count {
                let word = words[index]
                switch word.text {
                case "--images" where folder == nil && index + 1 < words.count:
                    folder = words[index + 1].text
                    index += 2
                case "--skip-damaged" where !skipDamaged:
                    skipDamaged = true
                    index += 1
                default:
                    throw Diagnostic.usage(usage, at: word.range.union(words.last?.range ?? word.range))
                }
            }
            if skipDamaged, folder == nil, let first = words.first {
                // Without a folder no picture is read, so none can be left out.
                throw Diagnostic.usage(usage, at: first.range)
            }
            let session = invocation.session
            // To a pipe or a file, written as it is made (a terminal fits text to its width,
            // so it gets the whole). A dump that fails part way ends in a line replaying stops
            // at, so what was written never restores as if whole.
            let streams = session.settings.table.maxWidth == nil && !session.settings.discardResults
            var streamed = false
            let dump: (text: String, leftOut: [String])
            do {
                dump = try Dump.script(
                    of: session, imageFolder: folder.map(session.host.pathForDump), skipDamaged: skipDamaged,
                    sink: streams
                        ? { piece in
                            streamed = true
                            session.output.write(String(decoding: piece, as: UTF8.self))
                        } : nil
                ) { name, bytes in
                    do {
                        try session.host.writeFile(at: name, bytes: bytes, creatingFolder: true)
                    } catch let error as Diagnostic {
                        throw error.at(words.last?.range)
                    }
                }
            } catch {
                if streamed { session.output.write(Dump.failedMarker) }
                throw error
            }
            Dump.noteLeftOut(dump.leftOut, host: session.host)
            return streams ? .nothing : .text(dump.text)
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
        try script(of: session, imageFolder: imageFolder, namedAs: namedAs, skipDamaged: false, copyImage: copyImage)
            .text
    }

    /// The script, and what `skipDamaged` (`--skip-damaged`) left out of it. With `sink`, the
    /// text goes there a piece at a time as it is made (the text returned is empty).
    public static func script(
        of session: Session, imageFolder: String?, namedAs: String? = nil, skipDamaged: Bool,
        sink: (([UInt8]) -> Void)? = nil, copyImage: @escaping (String, [UInt8]) throws -> Void
    )
        throws -> (text: String, leftOut: [String])
    {
        let counts = session.packs.summaryCounts.map { $0.0.counted($0.1) }
        var writer = DumpWriter(
            imageFolder: imageFolder, namedAs: namedAs, skipsDamaged: skipDamaged, sink: sink, writeFile: copyImage)
        writer.line("# closet dump: \(counts.joined(separator: ", "))")
        writer.line("# replay into an empty store: closet --store <dir> run <this file>")
        // All or nothing: the first statement that fails stops the restore and keeps none of it.
        writer.line(".bail on")
        // Every pack, made here if it was not yet: one that cannot start fails the dump rather
        // than leave its data out of it.
        for number in session.registry.packs.indices { try session.packs.state(ofPack: number).dump(into: &writer) }
        writer.line(".bail off")
        writer.flush()
        return (writer.text, writer.leftOut)
    }

    /// The last line of a dump that failed after part of it was written: an unknown dot command,
    /// which stops a replay under the dump's `.bail on` with nothing of it kept.
    static let failedMarker = ".dump-failed-here (this dump is incomplete: it stopped on an error)\n"

    /// One line on standard error for what `--skip-damaged` left out (the dump's comments say
    /// where): a backup that lacks something never looks whole.
    package static func noteLeftOut(_ leftOut: [String], host: SessionHost) {
        guard !leftOut.isEmpty else { return }
        let count = leftOut.count == 1 ? "1 picture" : "\(leftOut.count) pictures"
        host.write(
            "note: \(count) left out of the dump (--skip-damaged), each named in a comment there: "
                + leftOut.joined(separator: "; ") + "\n", to: .standardError)
    }
}
