import ClosetCore
import ClosetLanguage
import Foundation

/// `closet dump --output <file> [--images <dir> [--skip-damaged]]`: the dump written to a file (atomically),
/// pictures named relative to the file's folder, so the pair moves together and replays
/// from anywhere (a script's paths are its own folder's).
enum DumpFile {
    static func write(
        _ session: Session, to output: String, images: String?, skipDamaged: Bool = false, host: ProcessHost
    ) -> Bool {
        // Absolute and without `..`, so the two paths can be compared part by part.
        func absolute(_ path: String) -> String { FilePath.normalized(host.pathForDump(path)) }
        let file = absolute(output)
        let folder = images.map(absolute)
        let base = FilePath.parent(of: file)
        do {
            // Streamed into a temporary file renamed over the output once whole: a failed dump
            // leaves no file (and an older one as it was).
            var leftOut: [String] = []
            try host.writeFile(at: file, creatingFolder: false) { writePiece in
                try withoutActuallyEscaping(writePiece) { write in
                    var failure: Error?
                    let dump = try Dump.script(
                        of: session, imageFolder: folder, namedAs: folder.map { relativePath(from: base, to: $0) },
                        skipDamaged: skipDamaged,
                        sink: { piece in
                            guard failure == nil else { return }
                            do { try write(piece) } catch { failure = error }
                        }
                    ) { path, bytes in
                        try host.writeFile(at: path, bytes: bytes, creatingFolder: true)
                    }
                    if let failure { throw failure }
                    leftOut = dump.leftOut
                }
            }
            Dump.noteLeftOut(leftOut, host: host)
            return true
        } catch {
            session.output.fail(
                error as? Diagnostic ?? .cannotWrite(output, because: "\(error)"), source: nil, origin: nil)
            return false
        }
    }

    /// `to` as seen from the folder `from` (both absolute): `images`, `../pictures`.
    static func relativePath(from: String, to: String) -> String {
        let base = from.split(separator: "/")
        let target = to.split(separator: "/")
        var common = 0
        while common < base.count, common < target.count, base[common] == target[common] { common += 1 }
        let parts = Array(repeating: "..", count: base.count - common) + target[common...].map(String.init)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
