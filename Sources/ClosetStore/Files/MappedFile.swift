import ClosetCore
import ClosetTables
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A whole file mapped read-only: a snapshot is verified and read in place, never copied
/// into memory whole. The mapping lives as long as this object (tables reading rows from it
/// hold it); a file renamed over meanwhile does not change what it shows.
///
/// A file already mapped in this process (the same device, inode, size and modification time)
/// is mapped once: `closet serve`'s readers each open the store, and a page each of them reads
/// is then one page of the process's memory, not one per reader.
final class MappedFile {
    let memory: UnsafeRawBufferPointer
    /// Kept open so the bytes checksummed are the bytes mapped (the path may be renamed over).
    private let descriptor: Int32
    private var key: Key?

    struct Key: Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int
        var seconds: Int
        var nanoseconds: Int
    }

    private final class Weak {
        weak var file: MappedFile?
        init(_ file: MappedFile) { self.file = file }
    }

    nonisolated(unsafe) private static var mapped: [Key: Weak] = [:]
    private static let lock = NSLock()

    /// Nil when there is no such file.
    static func open(_ path: String) throws(POSIXFile.Failure) -> MappedFile? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw POSIXFile.failure("cannot open", path)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw POSIXFile.failure("cannot read", path)
        }
        let size = Int(info.st_size)
        guard size > 0 else { return MappedFile(memory: UnsafeRawBufferPointer(start: nil, count: 0), descriptor: fd) }
        let key = Key(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: size, seconds: Int(info.st_mtim.tv_sec),
            nanoseconds: Int(info.st_mtim.tv_nsec))
        lock.lock()
        defer { lock.unlock() }
        if let shared = mapped[key]?.file {
            close(fd)
            return shared
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            close(fd)
            throw POSIXFile.failure("cannot map", path)
        }
        // Rows are read one here and one there: no read-ahead, no pages mapped around the one
        // asked for, no huge pages (one row shown would otherwise map megabytes).
        _ = madvise(address, size, MADV_RANDOM)
        _ = madvise(address, size, MADV_NOHUGEPAGE)
        let file = MappedFile(memory: UnsafeRawBufferPointer(start: address, count: size), descriptor: fd)
        file.key = key
        mapped[key] = Weak(file)
        return file
    }

    private init(memory: UnsafeRawBufferPointer, descriptor: Int32) {
        self.memory = memory
        self.descriptor = descriptor
    }

    deinit {
        if let key {
            Self.lock.lock()
            if Self.mapped[key]?.file == nil { Self.mapped[key] = nil }
            Self.lock.unlock()
        }
        UnlinkedFileRelease.release(memory, descriptor: descriptor)
    }

    /// Bytes of the file read with `pread` (rows shown one by one: see `SnapshotRows.fetch`).
    func read(_ range: Range<Int>) -> [UInt8]? {
        guard range.lowerBound >= 0, range.upperBound <= memory.count else { return nil }
        // Read into uninitialized memory: zeroing a 32 KiB block first cost as much as a
        // third of reading it.
        var whole = true
        let bytes = [UInt8](unsafeUninitializedCapacity: range.count) { buffer, initialized in
            var done = 0
            while done < range.count, let base = buffer.baseAddress {
                let count = pread(descriptor, base + done, range.count - done, off_t(range.lowerBound + done))
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                done += count
            }
            initialized = done
            whole = done == range.count
        }
        return whole ? bytes : nil
    }

    /// CRC-32C of each `size`-byte block of `range` (the last one shorter), read through a
    /// small buffer rather than the mapping: verifying the whole file then does not make every
    /// page of it part of this process's memory, only the pages later read in place.
    /// CRC-32C of `range` as mapped (nil when it lies outside the file).
    func mappedChecksum(_ range: Range<Int>) -> UInt32? {
        guard range.lowerBound >= 0, range.upperBound <= memory.count else { return nil }
        return StoreChecksum.crc32c(UnsafeRawBufferPointer(rebasing: memory[range]))
    }

    func blockChecksums(_ range: Range<Int>, size: Int) -> [UInt32]? {
        guard range.upperBound <= memory.count else { return nil }
        return POSIXFile.blockChecksums(descriptor, range, size: size)
    }
}

extension MappedFile: PageReleasing {
    func releasePages(_ range: Range<Int>) {
        guard let base = memory.baseAddress, range.lowerBound >= 0, range.upperBound <= memory.count else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard page > 0 else { return }
        let first = (range.lowerBound + page - 1) / page * page
        let last = range.upperBound / page * page
        guard last > first else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + first), last - first, MADV_DONTNEED)
    }
}
