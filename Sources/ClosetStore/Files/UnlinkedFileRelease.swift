import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lets go of mapped files whose every name is gone (a snapshot a compaction renamed over) on
/// a thread of its own. The last reference to such a file frees its pages in the page cache
/// there and then: 7–12 ms for a 12 MB snapshot, which the thread that dropped it (the writes'
/// lane of `closet serve` reading the new snapshot, a reader lane catching up) would otherwise
/// spend inside a request. A file that still has a name keeps its pages and is let go at once.
enum UnlinkedFileRelease {
    /// Smaller files free their pages about as fast as a hand-over costs.
    static let smallestHandedOver = 1 << 20

    private static let condition = NSCondition()
    /// Mappings (address, length) and descriptors waiting, oldest first.
    nonisolated(unsafe) private static var waiting: [(address: UInt, count: Int, descriptor: Int32)] = []
    nonisolated(unsafe) private static var threadStarted = false
    nonisolated(unsafe) private static var busy = false
    nonisolated(unsafe) private static var released = 0

    /// How many files the thread has let go (tests).
    static var releasedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return released
    }

    /// Unmaps `memory` and closes `descriptor`: on the release thread when the file has no name
    /// left and is big (returns true), else now.
    @discardableResult
    static func release(_ memory: UnsafeRawBufferPointer, descriptor: Int32) -> Bool {
        var info = stat()
        guard memory.count >= smallestHandedOver, fstat(descriptor, &info) == 0, info.st_nlink == 0 else {
            releaseNow(address: UInt(bitPattern: memory.baseAddress), count: memory.count, descriptor: descriptor)
            return false
        }
        condition.lock()
        waiting.append((UInt(bitPattern: memory.baseAddress), memory.count, descriptor))
        if !threadStarted {
            threadStarted = true
            let thread = Thread { run() }
            thread.name = "closet-release"
            thread.start()
        }
        condition.signal()
        condition.unlock()
        return true
    }

    /// Waits until every file handed over so far is let go (tests).
    static func waitUntilIdle() {
        condition.lock()
        defer { condition.unlock() }
        while !waiting.isEmpty || busy { condition.wait() }
    }

    private static func run() {
        while true {
            condition.lock()
            while waiting.isEmpty { condition.wait() }
            let next = waiting.removeFirst()
            busy = true
            condition.unlock()
            releaseNow(address: next.address, count: next.count, descriptor: next.descriptor)
            condition.lock()
            busy = false
            released += 1
            condition.broadcast()
            condition.unlock()
        }
    }

    private static func releaseNow(address: UInt, count: Int, descriptor: Int32) {
        if let pointer = UnsafeMutableRawPointer(bitPattern: address), count > 0 { munmap(pointer, count) }
        close(descriptor)
    }
}
