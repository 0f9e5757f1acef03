import ClosetCore
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
        // Absolute and standardized: whether a path stays inside the test's folder is decided
        // on resolved paths (`..` included).
        let absolute =
            baseDirectory.hasPrefix("/")
            ? baseDirectory : FilePath.join(FileManager.default.currentDirectoryPath, baseDirectory)
        root = (absolute as NSString).standardizingPath
        self.baseDirectory = root
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

    // MARK: files a golden writes

    /// Where the files a golden writes inside its folder go instead (made on the first write;
    /// the runner compares it with `<name>.files/` if there is one, then removes it): a test
    /// leaves nothing behind, and tests of one folder never see each other's files.
    private(set) var scratch: String?

    /// The folder a relative path is taken from inside the scratch folder, mirroring the one
    /// it is taken from in the test's folder; nil when the path leads outside the test's folder.
    private func scratchBase(for path: String) -> String? {
        let real = (ScriptFile.resolve(path, relativeTo: baseDirectory) as NSString).standardizingPath
        let base = ((baseDirectory ?? root) as NSString).standardizingPath
        guard real.hasPrefix(root + "/"), base == root || base.hasPrefix(root + "/") else { return nil }
        if scratch == nil {
            let folder = NSTemporaryDirectory() + "closet-scratch-\(UUID().uuidString)"
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            scratch = folder
        }
        return (scratch ?? "") + String(base.dropFirst(root.count))
    }

    /// The scratch folder to write `path` relative to, the file's folder made where the test's
    /// own folder has it (so an export into `out/` works as it would there); nil when the write
    /// goes where it says.
    private func scratchWrite(_ path: String) -> String? {
        guard let base = scratchBase(for: path) else { return nil }
        let real = ScriptFile.resolve(path, relativeTo: baseDirectory)
        let target = ScriptFile.resolve(path, relativeTo: base)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: FilePath.parent(of: real), isDirectory: &isFolder), isFolder.boolValue
        {
            try? FileManager.default.createDirectory(
                atPath: FilePath.parent(of: target), withIntermediateDirectories: true)
        }
        return base
    }

    /// The scratch folder to read `path` from when the golden wrote it there.
    private func scratchRead(_ path: String) -> String? {
        guard scratch != nil, let base = scratchBase(for: path),
            FileManager.default.fileExists(atPath: ScriptFile.resolve(path, relativeTo: base))
        else { return nil }
        return base
    }

    func writeFile(at path: String, bytes: [UInt8], creatingFolder: Bool) throws {
        try ScriptFile.write(
            bytes, to: path, relativeTo: scratchWrite(path) ?? baseDirectory, creatingFolder: creatingFolder)
    }

    func writeFile(
        at path: String, creatingFolder: Bool, streaming produce: (_ write: ([UInt8]) throws -> Void) throws -> Void
    ) throws {
        try ScriptFile.write(
            to: path, relativeTo: scratchWrite(path) ?? baseDirectory, creatingFolder: creatingFolder,
            streaming: produce)
    }

    func appendOutput(_ text: String, toFile path: String, truncating: Bool) throws {
        guard let base = scratchWrite(path) else {
            return try ScriptFile.append(Array(text.utf8), to: path, relativeTo: baseDirectory, truncating: truncating)
        }
        // Appending to a file the test's folder holds: start from its bytes.
        let target = ScriptFile.resolve(path, relativeTo: base)
        let real = ScriptFile.resolve(path, relativeTo: baseDirectory)
        if !truncating, !FileManager.default.fileExists(atPath: target), FileManager.default.fileExists(atPath: real) {
            try? FileManager.default.copyItem(atPath: real, toPath: target)
        }
        try ScriptFile.append(Array(text.utf8), to: path, relativeTo: base, truncating: truncating)
    }

    func readFile(at path: String, limit: Int) throws -> [UInt8] {
        try ScriptFile.readBytes(path, relativeTo: scratchRead(path) ?? baseDirectory, limit: limit)
    }

    func openFile(at path: String) throws -> any FileReading {
        try ScriptFile.openPieces(path, relativeTo: scratchRead(path) ?? baseDirectory)
    }

    func readScript(at path: String) throws -> (text: String, displayName: String) {
        try ScriptFile.read(path, relativeTo: scratchRead(path) ?? baseDirectory)
    }
}
