import CStoreSupport
import ClosetTables

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A scratch file (`ScratchFile`) with no name in the store's folder: on the store's disk, not
/// in memory (a tmpfs `/tmp` would be), and gone when closed or when the process dies.
final class UnnamedFile: ScratchFile {
    private let descriptor: Int32

    /// Nil when the folder cannot hold one (read-only, no permission).
    init?(in folder: String) {
        descriptor = closet_open_unnamed(folder)
        guard descriptor >= 0 else { return nil }
    }

    deinit { close(descriptor) }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        var done = 0
        while done < bytes.count {
            let written = pwrite(descriptor, bytes.pointer(at: done), bytes.count - done, off_t(offset + done))
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            done += written
        }
        return true
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool {
        var done = 0
        while done < buffer.count {
            guard let base = buffer.baseAddress else { return false }
            let got = pread(descriptor, base + done, buffer.count - done, off_t(offset + done))
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return false }
            done += got
        }
        return true
    }
}
