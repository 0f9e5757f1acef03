import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One writer per store: an advisory `flock` on `<store>/lock`, which also holds the pid of
/// the process that has it so a second process can say who. The lock goes with the process
/// (a crash releases it), so there is never a stale lock to clean up.
final class StoreLock {
    private let descriptor: Int32

    enum Failure: Error {
        case held(pid: String)
        case system(String)
    }

    init(path: String) throws(Failure) {
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .system("cannot open '\(path)': \(String(cString: strerror(errno)))") }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let reason = errno
            let holder = (try? POSIXFile.readAll(path)).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
            close(fd)
            if reason == EWOULDBLOCK {
                let pid = holder?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
                throw .held(pid: pid.isEmpty ? "unknown" : pid)
            }
            throw .system("cannot lock '\(path)': \(String(cString: strerror(reason)))")
        }
        descriptor = fd
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress!, pid.count, 0) }
    }

    deinit {
        _ = ftruncate(descriptor, 0)
        close(descriptor)  // closing releases the flock
    }
}
