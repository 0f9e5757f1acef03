import ClosetCore
import ClosetLanguage
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The session host for a real process: buffered standard output (flushed before anything
/// goes to standard error, so the two stay in order on a terminal), files read from disk
/// relative to `baseDirectory`.
final class ProcessHost: FileBackedHost {
    private var buffer: [UInt8] = []
    /// Flush when this much is pending: big seed scripts print a lot.
    private static let flushThreshold = 64 * 1024
    let baseDirectory: String?

    init(baseDirectory: String? = nil) {
        self.baseDirectory = baseDirectory
    }

    deinit { flush() }

    /// Whether standard output is /dev/null (same device and inode), so results need not
    /// be rendered at all.
    static var standardOutputIsDevNull: Bool {
        var output = stat()
        var null = stat()
        guard fstat(STDOUT_FILENO, &output) == 0, stat("/dev/null", &null) == 0 else { return false }
        return output.st_dev == null.st_dev && output.st_ino == null.st_ino
    }

    func write(_ text: String, to stream: OutputChannel) {
        switch stream {
        case .standardOutput:
            buffer.append(contentsOf: text.utf8)
            if buffer.count >= Self.flushThreshold { flush() }
        case .standardError:
            flush()
            Self.writeAll(Array(text.utf8), to: STDERR_FILENO)
        }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        Self.writeAll(buffer, to: STDOUT_FILENO)
        buffer.removeAll(keepingCapacity: true)
    }

    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // a closed pipe: nothing more can be said
                }
                offset += written
            }
        }
    }

    /// Set on a terminal: Ctrl-C during a script stops it between statements.
    var interruptCheck: (() -> Bool)?

    func interruptRequested() -> Bool { interruptCheck?() ?? false }

    func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// A host whose `.read`, pictures, exports and imports are files on disk, relative paths
/// resolved against `baseDirectory` (the working directory when nil).
protocol FileBackedHost: SessionHost {
    var baseDirectory: String? { get }
}

extension FileBackedHost {
    func readScript(at path: String) throws -> (text: String, displayName: String) {
        try ScriptFile.read(path, relativeTo: baseDirectory)
    }

    func readFile(at path: String, limit: Int) throws -> [UInt8] {
        try ScriptFile.readBytes(path, relativeTo: baseDirectory, limit: limit)
    }

    func writeFile(at path: String, bytes: [UInt8]) throws {
        try ScriptFile.write(bytes, to: path, relativeTo: baseDirectory)
    }
}

/// Reading `.closet` files and pictures, with the errors people understand.
enum ScriptFile {
    static func resolve(_ path: String, relativeTo base: String?) -> String {
        if let base, !path.hasPrefix("/") { return (base as NSString).appendingPathComponent(path) }
        return path
    }

    /// Writes a whole file (its folder created first), replacing any that was there.
    static func write(_ bytes: [UInt8], to path: String, relativeTo base: String?) throws {
        let resolved = resolve(path, relativeTo: base)
        let folder = (resolved as NSString).deletingLastPathComponent
        do {
            if !folder.isEmpty {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            try Data(bytes).write(to: URL(fileURLWithPath: resolved), options: .atomic)
        } catch {
            throw Diagnostic.cannotWrite(path, because: (error as NSError).localizedDescription)
        }
    }

    static func readBytes(_ path: String, relativeTo base: String?, limit: Int) throws -> [UInt8] {
        let resolved = resolve(path, relativeTo: base)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory) else {
            throw Diagnostic.cannotRead(path, because: "no such file")
        }
        guard !isDirectory.boolValue else { throw Diagnostic.cannotRead(path, because: "it is a directory") }
        let size = (try? FileManager.default.attributesOfItem(atPath: resolved)[.size] as? Int) ?? 0
        guard size <= limit else {
            throw Diagnostic.fileTooLarge(path, bytes: size, limit: limit)
        }
        guard let data = FileManager.default.contents(atPath: resolved) else {
            throw Diagnostic.cannotRead(path, because: "permission denied")
        }
        return [UInt8](data)
    }

    static func read(_ path: String, relativeTo base: String?) throws -> (text: String, displayName: String) {
        let resolved = resolve(path, relativeTo: base)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory) else {
            throw Diagnostic.cannotRead(path, because: "no such file")
        }
        guard !isDirectory.boolValue else { throw Diagnostic.cannotRead(path, because: "it is a directory") }
        guard let data = FileManager.default.contents(atPath: resolved) else {
            throw Diagnostic.cannotRead(path, because: "permission denied")
        }
        let text: String
        switch UTF8Text.decode([UInt8](data)) {
        case .success(let decoded): text = decoded
        case .failure(let invalid):
            throw Diagnostic.cannotRead(
                path, because: "it is not UTF-8 text (invalid byte at offset \(invalid.offset))")
        }
        return (text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text, path)
    }
}
