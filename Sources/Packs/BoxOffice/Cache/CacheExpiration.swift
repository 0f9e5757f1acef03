import Foundation

/// How long a cached entry lives (reference §2.4).
enum CacheExpiration: Equatable, Sendable {
    case seconds(TimeInterval)
    case days(Int)

    func estimatedExpirationSince(_ date: Date) -> Date {
        switch self {
        case .seconds(let seconds): date.addingTimeInterval(seconds)
        case .days(let days): date.addingTimeInterval(TimeInterval(days) * 86_400)
        }
    }

    /// `300 s`, `7 d`: for `cache stats`.
    package var label: String {
        switch self {
        case .seconds(let seconds): "\(JSONSafe.number(seconds)) s"
        case .days(let days): "\(days) d"
        }
    }

    package var seconds: TimeInterval {
        switch self {
        case .seconds(let seconds): seconds
        case .days(let days): TimeInterval(days) * 86_400
        }
    }
}

/// What a read does to an entry's expiry.
enum ExpirationExtending: Equatable, Sendable {
    case none
    /// The whole duration again, added to the current estimated expiry (memory) or to now
    /// (disk), as the app does.
    case cacheTime
    case newExpiration(CacheExpiration)
}

extension Date {
    /// The app's rule: a date equal to the reference counts as past.
    package func isPast(referenceDate: Date) -> Bool { timeIntervalSince(referenceDate) <= 0 }
}

enum JSONSafe {
    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
