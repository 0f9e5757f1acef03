import ClosetCore
import Foundation

/// Dates as the app and KOBIS read them: Korean days (UTC+9), `yyyy-MM-dd` for people,
/// `yyyyMMdd` for the API, and the calendar's range from 2003-11-11 to yesterday.
package enum BoxOfficeCalendar {
    /// UTC+9 all year (no daylight saving); `Asia/Seoul` is the same where the offset is refused.
    static let korea = TimeZone(secondsFromGMT: 9 * 3600) ?? TimeZone(identifier: "Asia/Seoul") ?? .gmt
    static let firstDay = "2003-11-11"

    /// The Korean day of an instant, `yyyy-MM-dd`.
    package static func day(of date: Date) -> String {
        String(Timestamp.format(date.addingTimeInterval(TimeInterval(korea.secondsFromGMT()))).prefix(10))
    }

    /// Yesterday in Korea (the app's `DateConstant.yesterday`: now − 86,400 s).
    package static func yesterday(now: Date) -> String { day(of: now.addingTimeInterval(-86_400)) }

    /// The day `days` after `day` (`yyyy-MM-dd`; negative: before); nil for text that is not a day.
    static func day(_ day: String, plus days: Int) -> String? {
        guard let date = Timestamp.parse(day + "T00:00:00Z") else { return nil }
        return String(Timestamp.format(date.addingTimeInterval(TimeInterval(days) * 86_400)).prefix(10))
    }

    /// `2012-01-01` → `20120101`.
    package static func targetDate(_ day: String) -> String { day.replacingOccurrences(of: "-", with: "") }

    /// `20120913` → `2012-09-13` (dashes at 4 and 7, as the app inserts them); other text as is.
    static func dashed(_ text: String) -> String {
        guard text.count == 8, text.allSatisfy(\.isNumber) else { return text }
        var out = text
        out.insert("-", at: out.index(out.startIndex, offsetBy: 4))
        out.insert("-", at: out.index(out.startIndex, offsetBy: 7))
        return out
    }
}
