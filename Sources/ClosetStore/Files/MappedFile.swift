#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A whole file mapped read-only: a snapshot is verified and read in place, never copied
/// into memory whole. The mapping lives as long as this object (tables reading rows from it
/// hold it); a file renamed over meanwhile does not change what it shows.
final class MappedFile {
    let memory: UnsafeRawBufferPointer

    /// Nil when there is no such file.
    static func open(_ path: String) throws(POSIXFile.Failure) -> MappedFile? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw POSIXFile.failure("cannot open", path)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw POSIXFile.failure("cannot read", path) }
        let size = Int(info.st_size)
        guard size > 0 else { return MappedFile(memory: UnsafeRawBufferPointer(start: nil, count: 0)) }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw POSIXFile.failure("cannot map", path)
        }
        return MappedFile(memory: UnsafeRawBufferPointer(start: address, count: size))
    }

    private init(memory: UnsafeRawBufferPointer) { self.memory = memory }

    deinit {
        if let address = memory.baseAddress { munmap(UnsafeMutableRawPointer(mutating: address), memory.count) }
    }
}
