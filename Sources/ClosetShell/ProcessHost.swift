import ClosetCore
import ClosetLanguage
import ClosetTables
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
    private static let terminalHoldLimit = 64 << 20
    /// The folder relative paths resolve against: the running script's folder during `run`.
    var baseDirectory: String?

    /// Absolute, so a dump's picture paths work from wherever the dump is replayed (paths
    /// inside a script are taken relative to the script's own folder).
    func pathForDump(_ path: String) -> String {
        let resolved = ScriptFile.resolve(path, relativeTo: baseDirectory)
        guard !resolved.hasPrefix("/") else { return resolved }
        return FilePath.join(FileManager.default.currentDirectoryPath, resolved)
    }

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

    /// At an interactive terminal: results are held to the end of the statement and shown
    /// through the pager or with Ctrl-C stopping them.
    var terminal: TerminalOutput?
    /// How `.open` opens a store (the command line's options apply to it).
    var storeOpener: ((String) throws -> (store: Store, cacheRoot: String?))?

    func openStore(at location: String) throws -> (store: Store, cacheRoot: String?) {
        guard let storeOpener else { throw Diagnostic.cannotOpenStore(location, because: "not here") }
        return try storeOpener(
            location == ":memory:" ? location : ScriptFile.resolve(location, relativeTo: baseDirectory))
    }

    func write(_ text: String, to stream: OutputChannel) {
        switch stream {
        case .standardOutput:
            buffer.append(contentsOf: text.utf8)
            // At a terminal a statement's output is held whole (to page it), up to a bound.
            if buffer.count >= (terminal == nil ? Self.flushThreshold : Self.terminalHoldLimit) { flush() }
        case .standardError:
            flush()
            Self.writeAll(Array(text.utf8), to: STDERR_FILENO)
        }
    }

    /// A writer's UTF-8 as it is: a listing of a million rows was made a string (checked and
    /// copied) a megabyte at a time, for nothing.
    func write(utf8 bytes: [UInt8], to stream: OutputChannel) {
        guard stream == .standardOutput else { return write(String(decoding: bytes, as: UTF8.self), to: stream) }
        buffer.append(contentsOf: bytes)
        if buffer.count >= (terminal == nil ? Self.flushThreshold : Self.terminalHoldLimit) { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        // After a failed write nothing more is written: the rest would only be a gap's far side.
        if outputFailure == nil {
            let failed = terminal.map { $0.show(buffer) } ?? Self.writeAll(buffer, to: STDOUT_FILENO)
            if let failed { outputFailure = ScriptFile.reason(failed) }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Why standard output could not be written (a full disk, `/dev/full`, an I/O error), once
    /// it could not: the process then exits 1 saying so, as `ls` and `cat` do.
    private(set) var outputFailure: String?

    /// Writes every byte (again after a signal); the error number if it could not.
    @discardableResult
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(descriptor, raw.pointer(at: offset), raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if written == 0 { return EIO }
                offset += written
            }
            return nil
        }
    }

    /// Set at an interactive terminal: `password=?` (or a password left out) is asked for there.
    var asksForSecrets = false

    /// Reads a line from the terminal with echo off (the prompt and the newline on stderr);
    /// nil away from a terminal, on Ctrl-C or Ctrl-D, or when echo cannot be turned off.
    func readSecret(prompt: String) -> String? {
        guard asksForSecrets, isatty(STDIN_FILENO) == 1 else { return nil }
        flush()
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO | ECHONL)
        quiet.c_lflag |= tcflag_t(ICANON | ISIG)
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet) == 0 else { return nil }
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            Self.writeAll(Array("\n".utf8), to: STDERR_FILENO)
        }
        Self.writeAll(Array(prompt.utf8), to: STDERR_FILENO)
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = Glibc.read(STDIN_FILENO, &byte, 1)
            // Ctrl-C interrupts the read (SIGINT is installed without SA_RESTART); Ctrl-D ends it.
            if count < 0 || interruptRequested() { return nil }
            if count == 0 { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte == 10 || byte == 13 { break }
            line.append(byte)
            if line.count > 4096 { return nil }
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// `remove` at the prompt: asked on the terminal, answered with a line (y or yes, in
    /// either case, or 예/네); nil off the prompt or without a terminal.
    func confirm(_ question: String) -> Bool? {
        guard asksForSecrets, isatty(STDIN_FILENO) == 1 else { return nil }
        flush()
        Self.writeAll(Array(question.utf8), to: STDERR_FILENO)
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = Glibc.read(STDIN_FILENO, &byte, 1)
            if count < 0 || interruptRequested() {
                Self.writeAll(Array("\n".utf8), to: STDERR_FILENO)
                return false
            }
            if count == 0 || byte == 10 || byte == 13 { break }
            line.append(byte)
            if line.count > 64 { return false }
        }
        let answer = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces).lowercased()
        return ["y", "yes", "예", "네"].contains(answer)
    }

    /// Set on a terminal: Ctrl-C during a script stops it between statements.
    var interruptCheck: (() -> Bool)?

    func interruptRequested() -> Bool { interruptCheck?() ?? false }

    /// The process's own working folder (a script's paths stay relative to the script).
    func changeDirectory(to path: String) throws {
        let resolved = ScriptFile.resolve(path, relativeTo: baseDirectory)
        guard chdir(resolved) == 0 else {
            let code = errno
            // A folder is meant: said as one.
            let reason =
                code == ENOENT ? "no such folder" : code == ENOTDIR ? "it is not a folder" : ScriptFile.reason(code)
            throw Diagnostic.cannotChangeDirectory(path, because: reason)
        }
    }

    var currentDirectory: String { baseDirectory ?? FileManager.default.currentDirectoryPath }

    func monotonicSeconds() -> Double { Self.monotonicNow() }

    static func monotonicNow() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// A host whose `.read`, pictures, exports and imports are files on disk, relative paths
/// resolved against `baseDirectory` (the working directory when nil).
protocol FileBackedHost: SessionHost {
    var baseDirectory: String? { get set }
}

extension FileBackedHost {
    func readScript(at path: String) throws -> (text: String, displayName: String) {
        try ScriptFile.read(path, relativeTo: baseDirectory)
    }

    func readFile(at path: String, limit: Int) throws -> [UInt8] {
        try ScriptFile.readBytes(path, relativeTo: baseDirectory, limit: limit)
    }

    func openFile(at path: String) throws -> any FileReading {
        try ScriptFile.openPieces(path, relativeTo: baseDirectory)
    }

    func readingScript<T>(at path: String, _ body: () throws -> T) rethrows -> T {
        let before = baseDirectory
        defer { baseDirectory = before }
        baseDirectory = FilePath.parent(of: ScriptFile.resolve(path, relativeTo: baseDirectory))
        return try body()
    }

    func writeFile(at path: String, bytes: [UInt8], creatingFolder: Bool) throws {
        try ScriptFile.write(bytes, to: path, relativeTo: baseDirectory, creatingFolder: creatingFolder)
    }

    func writeFile(
        at path: String, creatingFolder: Bool, streaming produce: (_ write: ([UInt8]) throws -> Void) throws -> Void
    ) throws {
        try ScriptFile.write(to: path, relativeTo: baseDirectory, creatingFolder: creatingFolder, streaming: produce)
    }

    func appendOutput(_ text: String, toFile path: String, truncating: Bool) throws {
        try ScriptFile.append(Array(text.utf8), to: path, relativeTo: baseDirectory, truncating: truncating)
    }

    /// In the folder relative paths are taken from; its standard error passes through.
    func runShell(_ command: String) throws -> (output: String, status: Int32) { try runInFolder(command) }

    func runInFolder(_ command: String) throws -> (output: String, status: Int32) {
        let folder = baseDirectory.map { "cd '\($0.replacingOccurrences(of: "'", with: "'\\''"))' && " } ?? ""
        guard let pipe = popen(folder + command, "r") else {
            throw Diagnostic.cannotRun(command, because: ScriptFile.reason(errno))
        }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, pipe) }
            if count == 0 { break }
            output += chunk[..<count]
        }
        let status = pclose(pipe)
        // pclose gives a wait status: the exit code, or 128 + the signal that ended it.
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (String(decoding: output, as: UTF8.self), code)
    }
}

/// Reading and writing the files statements name (scripts, pictures, imports, exports), with
/// POSIX calls and the errors people understand. A pipe (`run <(...)`), a character device
/// (`/dev/null`) and `-` (standard input) read like files.
enum ScriptFile {
    /// `~` and `~/...` are the home folder, as in a shell; other relative paths are taken
    /// from `base` (the script's folder) when there is one.
    static func resolve(_ path: String, relativeTo base: String?) -> String {
        let path = expandingTilde(path)
        if let base, !base.isEmpty, !path.hasPrefix("/") { return FilePath.join(base, path) }
        return path
    }

    /// The home folder is looked up only for a path that starts with `~` (building the
    /// environment for every picture path was most of a seeding script's time).
    static func expandingTilde(_ path: String, home: @autoclosure () -> String = homeFolder()) -> String {
        guard path.utf8.first == UInt8(ascii: "~") else { return path }
        if path == "~" { return home() }
        if path.hasPrefix("~/") { return home() + path.dropFirst() }
        return path
    }

    static func homeFolder() -> String {
        if let home = getenv("HOME") { return String(cString: home) }
        return NSHomeDirectory()
    }

    /// Why a file operation failed, in words rather than an error number.
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "it is a directory"
        case ENOTDIR: "a folder in its path is a file"
        case ENOSPC: "the disk is full"
        case EROFS: "the file system is read-only"
        default: String(cString: strerror(code))
        }
    }

    /// Adds bytes to a file (`.output`), creating it, or emptying it first when `truncating`.
    static func append(_ bytes: [UInt8], to path: String, relativeTo base: String?, truncating: Bool) throws {
        let resolved = resolve(path, relativeTo: base)
        var status = stat()
        if stat(resolved, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            throw Diagnostic.cannotWrite(path, because: "it is a directory")
        }
        let fd = open(resolved, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (truncating ? O_TRUNC : 0), 0o644)
        guard fd >= 0 else { throw Diagnostic.cannotWrite(path, because: reason(errno)) }
        defer { close(fd) }
        if let code = writeFully(bytes, to: fd) { throw Diagnostic.cannotWrite(path, because: reason(code)) }
    }

    /// Writes every byte, again after a signal; the error number if it could not.
    private static func writeFully(_ bytes: [UInt8], to fd: Int32) -> Int32? {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return errno }
            written += count
        }
        return nil
    }

    /// Writes a whole file, replacing any that was there (through a temporary file and a
    /// rename, so a reader never sees half of it). Its folder must exist unless
    /// `creatingFolder`.
    static func write(_ bytes: [UInt8], to path: String, relativeTo base: String?, creatingFolder: Bool) throws {
        try write(to: path, relativeTo: base, creatingFolder: creatingFolder) { write in try write(bytes) }
    }

    /// Writes a file from the pieces `produce` hands over, into a temporary beside it renamed
    /// over it at the end (a failure leaves the old file, and removes the temporary).
    static func write(
        to path: String, relativeTo base: String?, creatingFolder: Bool,
        streaming produce: (_ write: ([UInt8]) throws -> Void) throws -> Void
    ) throws {
        let resolved = resolve(path, relativeTo: base)
        let folder = FilePath.parent(of: resolved)
        // Messages name the folder as the path gave it, not where it resolved to.
        let named = FilePath.parent(of: path).isEmpty ? folder : FilePath.parent(of: path)
        if creatingFolder, !folder.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw Diagnostic.cannotWrite(path, because: "cannot create its folder '\(named)'")
            }
        }
        var status = stat()
        if !folder.isEmpty, stat(folder, &status) != 0 {
            throw Diagnostic.cannotWrite(path, because: "no such folder '\(named)'")
        }
        if stat(resolved, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            throw Diagnostic.cannotWrite(path, because: "it is a directory")
        }
        let temporary = resolved + ".closet-tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw Diagnostic.cannotWrite(path, because: reason(errno)) }
        // Written behind the pieces' making (`WriteBehind`); an error stops the next hand-over.
        let behind = WriteBehind { bytes in writeFully(bytes, to: fd) }
        do {
            try produce { bytes in
                if let code = behind.hand(bytes) { throw Diagnostic.cannotWrite(path, because: reason(code)) }
            }
            if let code = behind.finish() { throw Diagnostic.cannotWrite(path, because: reason(code)) }
        } catch {
            _ = behind.finish()
            close(fd)
            unlink(temporary)
            throw error
        }
        guard close(fd) == 0, rename(temporary, resolved) == 0 else {
            let code = errno
            unlink(temporary)
            throw Diagnostic.cannotWrite(path, because: reason(code))
        }
    }

    /// A file's bytes, at most `limit` of them.
    static func readBytes(_ path: String, relativeTo base: String?, limit: Int) throws -> [UInt8] {
        if path == "-" { return try readAll(STDIN_FILENO, path: path, limit: limit) }
        let (fd, expected) = try openForReading(path, relativeTo: base, limit: limit)
        defer { close(fd) }
        return try readAll(fd, path: path, limit: limit, expected: expected)
    }

    /// A file opened for reading, and its size when it is a regular file; refused when it is
    /// not something to read or is larger than `limit`.
    private static func openForReading(_ path: String, relativeTo base: String?, limit: Int) throws -> (
        Int32, expected: Int?
    ) {
        let resolved = resolve(path, relativeTo: base)
        var status = stat()
        guard stat(resolved, &status) == 0 else { throw Diagnostic.cannotRead(path, because: reason(errno)) }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: throw Diagnostic.cannotRead(path, because: "it is a directory")
        case S_IFSOCK: throw Diagnostic.cannotRead(path, because: "it is a socket")
        case S_IFBLK: throw Diagnostic.cannotRead(path, because: "it is a block device")
        case S_IFREG:
            guard Int(status.st_size) <= limit else {
                throw Diagnostic.fileTooLarge(path, bytes: Int(status.st_size), limit: limit)
            }
        default:
            break  // a pipe or a character device: read to its end
        }
        let fd = Glibc.open(resolved, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Diagnostic.cannotRead(path, because: reason(errno)) }
        return (fd, (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : nil)
    }

    /// A file to read a piece at a time: a regular file from its descriptor, read again from
    /// its start by seeking; anything else (a named pipe, `-`) read whole first, as it can be read
    /// once.
    static func openPieces(_ path: String, relativeTo base: String?) throws -> any FileReading {
        let limit = TransferFiles.maximumHeldImportBytes
        if path == "-" { return BytesReading(try readAll(STDIN_FILENO, path: path, limit: limit)) }
        let (fd, size) = try openForReading(path, relativeTo: base, limit: .max)
        guard size != nil else {
            defer { close(fd) }
            return BytesReading(try readAll(fd, path: path, limit: limit))
        }
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL)
        return DescriptorReading(fd, path: path, byteCount: size)
    }

    /// A regular file's descriptor read in pieces; closed when no longer read.
    final class DescriptorReading: FileReading {
        private let descriptor: Int32
        private let path: String
        let byteCount: Int?

        init(_ descriptor: Int32, path: String, byteCount: Int?) {
            self.descriptor = descriptor
            self.path = path
            self.byteCount = byteCount
        }

        deinit { close(descriptor) }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            try ScriptFile.read(descriptor, into: buffer.bindMemory(to: UInt8.self), path: path)
        }

        func rewind() throws {
            guard lseek(descriptor, 0, SEEK_SET) == 0 else {
                throw Diagnostic.cannotRead(path, because: ScriptFile.reason(errno))
            }
        }
    }

    /// Reads into `buffer` until it is full or the file ends; how many bytes were read.
    fileprivate static func read(_ fd: Int32, into buffer: UnsafeMutableBufferPointer<UInt8>, path: String) throws
        -> Int
    {
        var filled = 0
        while filled < buffer.count {
            let count = Glibc.read(fd, buffer.pointer(at: filled), buffer.count - filled)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Diagnostic.cannotRead(path, because: reason(errno)) }
            if count == 0 { break }
            filled += count
        }
        return filled
    }

    /// Reads to the end. A regular file of `expected` bytes is read into a buffer of its size
    /// (a zeroed 64 KiB chunk per small picture was a tenth of a seeding script's time, and a
    /// big file grown a chunk at a time was copied again at each doubling); it is still read
    /// to its end, in case it grew.
    private static func readAll(_ fd: Int32, path: String, limit: Int, expected: Int? = nil) throws -> [UInt8] {
        var bytes: [UInt8] = []
        if let expected {
            bytes = try [UInt8](unsafeUninitializedCapacity: expected + 1) { buffer, initialized in
                initialized = try read(fd, into: buffer, path: path)
            }
            if bytes.count <= expected { return bytes }
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Diagnostic.cannotRead(path, because: reason(errno)) }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            if bytes.count > limit { throw Diagnostic.fileTooLarge(path, bytes: nil, limit: limit) }
        }
    }

    /// Scripts can be any size a person writes; this is a guard against reading a disk image.
    static let scriptLimit = 1 << 30

    static func read(_ path: String, relativeTo base: String?) throws -> (text: String, displayName: String) {
        let displayName = path == "-" ? "<stdin>" : path
        func refused(_ invalid: InvalidUTF8) -> Diagnostic {
            .cannotRead(path, because: "it is not UTF-8 text (invalid byte at offset \(invalid.offset))")
        }
        let bytes: [UInt8]
        if path == "-" {
            bytes = try readAll(STDIN_FILENO, path: path, limit: scriptLimit)
        } else {
            let (fd, expected) = try openForReading(path, relativeTo: base, limit: scriptLimit)
            defer { close(fd) }
            // A regular file is read straight into the text's storage and checked there.
            if let expected,
                let text = try UTF8Text.text(
                    capacity: expected + 1,
                    { buffer -> Int? in
                        let filled = try read(fd, into: buffer, path: path)
                        return filled <= expected ? filled : nil
                    })
            {
                return (withoutByteOrderMark(text), displayName)
            }
            // It grew while read, is not UTF-8, or is a pipe: read to its end.
            if expected != nil { lseek(fd, 0, SEEK_SET) }
            bytes = try readAll(fd, path: path, limit: scriptLimit)
        }
        switch UTF8Text.decode(bytes) {
        case .success(let text): return (withoutByteOrderMark(text), displayName)
        case .failure(let invalid): throw refused(invalid)
        }
    }

    private static func withoutByteOrderMark(_ text: String) -> String {
        text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    }
}

extension ProcessHost {
    /// The process's environment, read straight from `environ`: Foundation's
    /// `ProcessInfo.environment` costs a noticeable part of a short process's start.
    static func environment() -> [String: String] {
        var count = 0
        while environ[count] != nil { count += 1 }
        // Sized once: growing it rehashed every name several times.
        var variables: [String: String] = Dictionary(minimumCapacity: count)
        var entry = environ
        while let pointer = entry.pointee {
            // Split as bytes: a Character search walks grapheme clusters (most of start-up's
            // time in this function).
            let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: bytes[..<equals], as: UTF8.self)
                if variables[name] == nil {
                    variables[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
                }
            }
            entry += 1
        }
        return variables
    }
}
