import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few file-system calls the store needs, with `errno` turned into messages. Foundation's
/// FileManager cannot fsync, flock or rename atomically over an existing file on every
/// platform, so these go to POSIX directly.
enum POSIXFile {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func failure(_ what: String, _ path: String) -> Failure {
        Failure(description: "\(what) '\(path)': \(reason(errno))")
    }

    /// A system error in plain words (the C library's own text for the rare rest).
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file or folder"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "it is a folder"
        case ENOTDIR: "a folder in its path is a file"
        case ENOSPC: "the disk is full"
        case EDQUOT: "the disk quota is used up"
        case EROFS: "the file system is read-only"
        case EEXIST: "it already exists"
        case ENAMETOOLONG: "the name is too long"
        default: String(cString: strerror(code)).lowercased()
        }
    }

    static func open(_ path: String, flags: Int32, mode: mode_t = 0o600) throws(Failure) -> Int32 {
        let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
        guard fd >= 0 else { throw failure("cannot open", path) }
        return fd
    }

    /// Writes in pieces of at most 64 KiB: the page cache keeps what one `write` wrote in
    /// folios as large as the write (up to 2 MB), and a reader that maps the file maps a whole
    /// folio wherever it touches it. A snapshot written at once cost a reader 2 MB of memory per
    /// place it read (a top-20 on a store just written peaked at 13.6 MB, 8.0 MB written so).
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(Failure) {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(Failure) in try writeAll(fd, raw, path: path) }
        }.get()
    }

    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let piece = min(bytes.count - offset, 64 << 10)
            let written = Glibc.write(fd, bytes.pointer(at: offset), piece)
            if written < 0 {
                if errno == EINTR { continue }
                throw failure("cannot write", path)
            }
            offset += written
        }
    }

    static func sync(_ fd: Int32, path: String) throws(Failure) {
        guard fsync(fd) == 0 else { throw failure("cannot sync", path) }
    }

    static func readAll(_ path: String) throws(Failure) -> [UInt8]? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw failure("cannot open", path)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("cannot read", path) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.pointer(at: offset), $0.count - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("cannot read", path)
            }
            if count == 0 { break }
            offset += count
        }
        return offset == bytes.count ? bytes : Array(bytes[0..<offset])
    }

    /// Writes a whole file crash-safely: a temporary file, synced, renamed over the target,
    /// then the directory synced so the rename itself survives a crash.
    static func replace(_ path: String, with bytes: [UInt8], directory: String) throws(Failure) {
        try replace(path, with: bytes, directory: directory, syncing: true)
    }

    /// Writes `<path>.tmp` and renames it over `path`; with `syncing`, the file and its folder
    /// are synced too (else the caller syncs them later, several at once).
    static func replace(_ path: String, with bytes: [UInt8], directory: String, syncing: Bool) throws(Failure) {
        let temporary = path + ".tmp"
        let fd = try open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC)
        do {
            try writeAll(fd, bytes, path: temporary)
            if syncing { try sync(fd, path: temporary) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, path) == 0 else { throw failure("cannot rename", temporary) }
        if syncing { try syncDirectory(directory) }
    }

    /// Syncs a file already written (by its path).
    static func syncFile(_ path: String) throws(Failure) {
        let fd = try open(path, flags: O_RDONLY)
        defer { close(fd) }
        try sync(fd, path: path)
    }

    static func syncDirectory(_ path: String) throws(Failure) {
        let fd = try open(path, flags: O_RDONLY | O_DIRECTORY)
        defer { close(fd) }
        try sync(fd, path: path)
    }

    static func size(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// The names in a folder (not `.` and `..`), or nil when it cannot be read. With `readdir`:
    /// FileManager's listing resolved its generic types by mangled name, 300,000 instructions
    /// the first time, and every writer lists `images/` once.
    static func entries(_ path: String) -> [String]? {
        guard let folder = opendir(path) else { return nil }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// CRC-32C of each `size`-byte block of `range` of an open file (the last one shorter),
    /// read with `pread` through a small buffer: nil if the file cannot be read that far.
    static func blockChecksums(_ descriptor: Int32, _ range: Range<Int>, size: Int) -> [UInt32]? {
        guard range.lowerBound >= 0, size > 0 else { return nil }
        let chunk = min(256 << 10, max(range.count, 1))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var checksums: [UInt32] = []
        checksums.reserveCapacity(range.count / size + 1)
        var crc: UInt32 = 0
        var inBlock = 0
        var position = range.lowerBound
        while position < range.upperBound {
            let count = pread(descriptor, buffer.baseAddress, min(chunk, range.upperBound - position), off_t(position))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            // The chunk read, cut where blocks end.
            var offset = 0
            while offset < count {
                let piece = min(count - offset, size - inBlock)
                crc = StoreChecksum.crc32c(
                    UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + piece)]), continuing: crc)
                offset += piece
                inBlock += piece
                if inBlock == size || position + offset == range.upperBound {
                    checksums.append(crc)
                    crc = 0
                    inBlock = 0
                }
            }
            position += count
        }
        return checksums
    }
}
