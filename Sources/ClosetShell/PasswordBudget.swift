import Foundation

/// Failed password checks per client address: each address may fail `perMinute` times in any
/// minute; past that its writes are answered `429` without running (no hashing), until the
/// oldest failure is a minute old. A write that may check a password holds a place in the
/// budget while it runs (`admit`, then `finished`), so fifty guesses sent at once count as fifty,
/// not as none until the first is hashed. Guessing from one address then costs the server a few
/// checks a minute, and cannot starve anyone else. Shared by the I/O thread (admitting) and the
/// workers (counting), so it is locked; at most `maximumAddresses` are remembered.
final class PasswordBudget: @unchecked Sendable {
    static let window: Double = 60
    static let maximumAddresses = 4096

    let perMinute: Int
    private let lock = NSLock()
    private var failures: [String: [Double]] = [:]
    /// Writes of each address running now.
    private var running: [String: Int] = [:]

    init(perMinute: Int) { self.perMinute = perMinute }

    /// Why a write was not admitted, and the seconds until the address may try again.
    struct Refusal {
        var seconds: Double
        /// Its failures fill the budget (else its writes running now do).
        var guessing: Bool
    }

    /// Admits a write from the address, holding a place until `finished`; or why not, when its
    /// failures and its writes running fill its budget.
    func admit(_ address: String, now: Double) -> Refusal? {
        lock.lock()
        defer { lock.unlock() }
        var times = failures[address] ?? []
        times.removeAll { now - $0 >= Self.window }
        failures[address] = times.isEmpty ? nil : times
        let busy = running[address] ?? 0
        guard times.count + busy >= perMinute else {
            running[address] = busy + 1
            return nil
        }
        // Running writes free their places in seconds; failures a minute after they happened.
        guard let oldest = times.first, times.count >= perMinute else { return Refusal(seconds: 1, guessing: false) }
        return Refusal(seconds: max(1, Self.window - (now - oldest)), guessing: true)
    }

    /// A write admitted by `admit` is done; `refused`: it failed a password check.
    func finished(_ address: String, refused: Bool, now: Double) {
        if refused { failed(address, now: now) }
        lock.lock()
        defer { lock.unlock() }
        if let busy = running[address] { running[address] = busy > 1 ? busy - 1 : nil }
    }

    private func failed(_ address: String, now: Double) {
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
