import Foundation

/// Bounds the helper's memory while a request runs: URLSession (libcurl) reads and inflates an
/// https answer ahead of the delegate that bounds its body, so a gzip bomb grew the helper past
/// 1 GB before its cancel could run. Past `limit` resident bytes, the request in flight is
/// answered as given up and the helper ends (the shell starts another for the next request);
/// the answer is written under the same lock as the loop's own, once.
final class MemoryWatch: @unchecked Sendable {
    /// Guards the state; signalled when a request begins, so an idle helper never wakes.
    private let condition = NSCondition()
    /// The request in flight: how much the helper may hold, and how to answer it if it passes.
    private var current: (limit: Int, giveUp: () -> Void)?
    private var answered = false
    private static let pageSize = max(1, sysconf(Int32(_SC_PAGESIZE)))

    init() {
        let thread = Thread { [unowned self] in watch() }
        thread.stackSize = 256 << 10
        thread.start()
    }

    /// The helper's resident bytes now (`/proc/self/statm`'s second field, in pages).
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * pageSize
    }

    /// Sleeps while no request runs; every 20 ms while one does.
    private func watch() {
        while true {
            condition.lock()
            while current == nil || answered { condition.wait() }
            condition.unlock()
            Thread.sleep(forTimeInterval: 0.02)
            condition.lock()
            var over: (() -> Void)?
            if let current, !answered, let resident = Self.residentBytes(), resident > current.limit {
                answered = true
                over = current.giveUp
            }
            condition.unlock()
            if let over {
                over()
                _exit(0)
            }
        }
    }

    /// Watches one request; `giveUp` answers it when the helper passes `limit`.
    func begin(limit: Int, giveUp: @escaping () -> Void) {
        condition.lock()
        current = (limit, giveUp)
        answered = false
        condition.signal()
        condition.unlock()
    }

    /// Ends the watch; false when it already answered the request (the helper is ending).
    func end() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        current = nil
        return !answered
    }
}
