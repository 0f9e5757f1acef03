import ClosetLanguage
import Foundation

/// The host of a golden test: standard output and standard error go into one transcript, in
/// order, and each transcript line remembers the statement that printed it so a mismatch can
/// name the file:line to look at.
final class TranscriptHost: FileBackedHost {
    private(set) var text = ""
    private(set) var lineOwners: [StatementLocation?] = []
    weak var session: Session?
    /// The golden file's folder; `.cd` moves it, never the process's own.
    var baseDirectory: String?
    private let root: String

    /// `.shell` and `.system` depend on the machine: a golden runs them only when one of its
    /// comment lines begins `# allow: shell` (see `allowsShell(in:)`).
    var allowsShell = false

    init(baseDirectory: String) {
        self.baseDirectory = baseDirectory
        root = baseDirectory
    }

    /// Whether a golden's text opts in to `.shell` and `.system`.
    static func allowsShell(in script: String) -> Bool {
        script.split(separator: "\n").contains { $0.hasPrefix("# allow: shell") }
    }

    func runShell(_ command: String) throws -> (output: String, status: Int32) {
        guard allowsShell else {
            throw Diagnostic(
                "golden.shell",
                "a golden test runs no shell command (its output would depend on the machine); a test that must, says so in a comment line '# allow: shell'",
                at: nil)
        }
        return try runInFolder(command)
    }

    func changeDirectory(to path: String) throws {
        let resolved = ScriptFile.resolve(path, relativeTo: baseDirectory)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isFolder), isFolder.boolValue else {
            throw Diagnostic.cannotChangeDirectory(path, because: "no such folder")
        }
        baseDirectory = resolved
    }

    /// Relative to the golden file's folder: a transcript must not name the machine.
    var currentDirectory: String {
        guard let baseDirectory, baseDirectory != root else { return "." }
        return baseDirectory.hasPrefix(root + "/") ? String(baseDirectory.dropFirst(root.count + 1)) : baseDirectory
    }

    func write(_ text: String, to stream: OutputChannel) {
        self.text += text
        let owner = session?.currentStatement
        for character in text where character == "\n" { lineOwners.append(owner) }
    }

    /// Golden output must not depend on the machine: time stands still.
    func monotonicSeconds() -> Double { 0 }
}
