import Foundation

/// Where new entities get their `createdAt`.
public protocol Clock: AnyObject {
    func now() -> Date
}

/// The real time, cut to whole milliseconds so a stored instant prints and parses back exactly.
public final class SystemClock: Clock {
    public init() {}
    public func now() -> Date {
        let millis = (Date().timeIntervalSince1970 * 1000).rounded(.down)
        return Date(timeIntervalSince1970: millis / 1000)
    }
}

/// A clock a session may move on purpose (`.clock` under `--deterministic`), so goldens can
/// let cached entries expire or make "yesterday" another day.
public protocol AdjustableClock: Clock {
    /// The time the next timestamp will be, without taking one.
    var current: Date { get }
    func advance(by seconds: TimeInterval)
    func set(_ date: Date)
}

/// `--deterministic`: starts at 2024-01-01T00:00:00Z and advances exactly one second each
/// time a timestamp is taken (SPEC §7).
package final class SteppingClock: AdjustableClock {
    public static let start = Date(timeIntervalSince1970: 1_704_067_200)
    private var next: Date

    public init(start: Date = SteppingClock.start) { next = start }

    public func now() -> Date {
        defer { next = next.addingTimeInterval(1) }
        return next
    }

    public var current: Date { next }
    public func advance(by seconds: TimeInterval) { next = next.addingTimeInterval(seconds) }
    public func set(_ date: Date) { next = date }
}

/// `--today <day>`: a recorded world's day. The clock starts at 00:00 UTC on that day when the
/// session starts and runs on in real time (so cached entries still expire), and "yesterday"
/// (the box office's default day) is a day the recordings hold.
package final class DayClock: Clock {
    private let offset: TimeInterval
    private let real = SystemClock()

    package init(today: Date) { offset = today.timeIntervalSince1970 - real.now().timeIntervalSince1970 }

    public func now() -> Date { real.now().addingTimeInterval(offset) }
}

/// A day as `--today` and a recordings folder's `today` file give it: `yyyy-mm-dd`, read as
/// 00:00 UTC.
package enum RecordedDay {
    package static func parse(_ text: String) -> Date? {
        let day = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard day.utf8.count == 10, let date = Timestamp.parse(day) else { return nil }
        return date
    }
}
