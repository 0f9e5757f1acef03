import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The write lock: one writer per store at a time, held only from a transaction's first
/// write to its commit. It is an advisory `flock` on the store's folder itself, so deleting a
/// file cannot let a second writer in; `<store>/lock` holds the holder's pid (so a waiting
/// process can say who) and is `flock`ed too, which keeps out builds that locked only it.
/// A lock goes with its process (a crash releases it): there is never a stale one to clean up.
final class StoreLock {
    private let folder: String
    private var folderDescriptor: Int32 = -1
    private var fileDescriptor: Int32 = -1
    private(set) var isHeld = false

    enum Failure: Error {
        /// Another process held it for the whole wait.
        case held(pid: String)
        case system(String)
    }

    init(folder: String) { self.folder = folder }

    deinit { release() }

    var lockFilePath: String { folder + "/lock" }

    /// Takes the lock, waiting up to `timeout` seconds for another process to let go.
    func acquire(timeout: Double) throws(Failure) {
        guard !isHeld else { return }
        if folderDescriptor < 0 {
            folderDescriptor = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard folderDescriptor >= 0 else { throw .system(message("cannot open", folder, errno)) }
        }
        let deadline = Self.now() + max(0, timeout)
        var pause: UInt32 = 1000  // µs, doubling to 50 ms: short waits stay short
        while flock(folderDescriptor, LOCK_EX | LOCK_NB) != 0 {
            let reason = errno
            guard reason == EWOULDBLOCK || reason == EINTR else {
                throw .system(message("cannot lock", folder, reason))
            }
            if Self.now() >= deadline { throw .held(pid: holder()) }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
        // The pid file: recreated if someone deleted it (the folder's lock still protects).
        let fd = Glibc.open(lockFilePath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if fd >= 0 {
            // An older build keeps this flock for its whole life: wait for it like any writer.
            while flock(fd, LOCK_EX | LOCK_NB) != 0 {
                if Self.now() >= deadline {
                    close(fd)
                    flock(folderDescriptor, LOCK_UN)
                    throw .held(pid: holder())
                }
                usleep(pause)
                pause = min(pause * 2, 50_000)
            }
            let pid = Array("\(getpid())\n".utf8)
            _ = ftruncate(fd, 0)
            _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, pid.count, 0) }
            fileDescriptor = fd
        }
        isHeld = true
    }

    /// Lets go (a no-op when not held).
    func release() {
        if fileDescriptor >= 0 {
            _ = ftruncate(fileDescriptor, 0)
            close(fileDescriptor)  // closing releases its flock
            fileDescriptor = -1
        }
        if folderDescriptor >= 0 {
            if isHeld { flock(folderDescriptor, LOCK_UN) }
            close(folderDescriptor)
            folderDescriptor = -1
        }
        isHeld = false
    }

    /// The pid the holder wrote, or "unknown".
    private func holder() -> String {
        let text = ((try? POSIXFile.readAll(lockFilePath)).flatMap { $0 }).map { String(decoding: $0, as: UTF8.self) }
        let pid = text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return pid.isEmpty ? "unknown" : pid
    }

    private func message(_ what: String, _ path: String, _ code: Int32) -> String {
        "\(what) '\(path)': \(String(cString: strerror(code)))"
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
