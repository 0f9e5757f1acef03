import Foundation

/// Failed password checks per client address: each address may fail `perMinute` times in any
/// minute; past that its writes are answered `429` without running (no hashing), until the
/// oldest failure is a minute old. Guessing from one address then costs the server a few checks
/// a minute, and cannot starve anyone else. Shared by the I/O thread (asking) and the workers
/// (counting), so it is locked; at most `maximumAddresses` are remembered (the oldest forgotten).
final class PasswordBudget: @unchecked Sendable {
    static let window: Double = 60
    static let maximumAddresses = 4096

    let perMinute: Int
    private let lock = NSLock()
    private var failures: [String: [Double]] = [:]

    init(perMinute: Int) { self.perMinute = perMinute }

    /// Seconds until the address may try again; nil while it is within its budget.
    func retryAfter(_ address: String, now: Double) -> Double? {
        lock.lock()
        defer { lock.unlock() }
        guard var times = failures[address] else { return nil }
        times.removeAll { now - $0 >= Self.window }
        failures[address] = times.isEmpty ? nil : times
        guard times.count >= perMinute, let oldest = times.first else { return nil }
        return max(1, Self.window - (now - oldest))
    }

    func failed(_ address: String, now: Double) {
        lock.lock()
        defer { lock.unlock() }
        if failures[address] == nil, failures.count >= Self.maximumAddresses {
            // Forget the address whose last failure is oldest.
            if let stalest = failures.min(by: { ($0.value.last ?? 0) < ($1.value.last ?? 0) })?.key {
                failures[stalest] = nil
            }
        }
        var times = failures[address] ?? []
        times.removeAll { now - $0 >= Self.window }
        times.append(now)
        if times.count > perMinute { times.removeFirst(times.count - perMinute) }
        failures[address] = times
    }
}
