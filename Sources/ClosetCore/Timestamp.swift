import Foundation

/// ISO 8601 dates in and out, written here rather than with `ISO8601DateFormatter` because
/// seed scripts parse one per statement and the formatter is slow on Linux.
/// Input: `2024-05-17` (midnight UTC) or `2024-05-17T09:30[:00[.123]](Z|±HH:MM)`.
/// Output: `2024-05-17T09:30:00Z`, with milliseconds only when there are some.
public enum Timestamp {
    public static func parse(_ text: String) -> Date? {
        // Read in place: copying the text into an array was a third of parsing a seed
        // script's `created=` (one per statement).
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    /// `parse` of text given as UTF-8 (where a statement's value lies).
    package static func parse(bytes b: UnsafeBufferPointer<UInt8>) -> Date? {
        @inline(__always) func digits(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var value = 0
            for i in start..<(start + count) {
                guard (48...57).contains(b[i]) else { return nil }
                value = value * 10 + Int(b[i] - 48)
            }
            return value
        }
        guard let year = digits(0, 4), b.count >= 10, b[4] == 45, let month = digits(5, 2), b[7] == 45,
            let day = digits(8, 2), (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var seconds = Int64(daysFromCivil(year: year, month: month, day: day)) * 86_400
        if b.count == 10 { return Date(timeIntervalSince1970: Double(seconds)) }

        guard b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "), let hour = digits(11, 2), hour < 24,
            b.count > 13, b[13] == 58, let minute = digits(14, 2), minute < 60
        else { return nil }
        var position = 16
        var second = 0
        var millis: Int64 = 0
        if position < b.count, b[position] == 58 {
            guard let s = digits(position + 1, 2), s < 60 else { return nil }
            second = s
            position += 3
            if position < b.count, b[position] == 46 {
                position += 1
                let start = position
                // Whole milliseconds are kept: later digits are cut, never rounded, so a time
                // just before midnight of 9999-12-31 stays in year 9999.
                var scale: Int64 = 100
                while position < b.count, (48...57).contains(b[position]) {
                    millis += Int64(b[position] - 48) * scale
                    scale /= 10
                    position += 1
                }
                guard position > start else { return nil }
            }
        }
        seconds += Int64(hour * 3600 + minute * 60 + second)
        guard position < b.count else { return nil }  // a zone is required after a time
        if b[position] == UInt8(ascii: "Z") || b[position] == UInt8(ascii: "z") {
            guard position + 1 == b.count else { return nil }
        } else if b[position] == 43 || b[position] == 45 {
            guard let zh = digits(position + 1, 2), zh < 24, position + 6 == b.count, b[position + 3] == 58,
                let zm = digits(position + 4, 2), zm < 60
            else { return nil }
            let offset = Int64(zh * 3600 + zm * 60)
            seconds += b[position] == 43 ? -offset : offset
        } else {
            return nil
        }
        let total = seconds * 1000 + millis
        // Only instants `format` writes back as the same text (years 0000 to 9999 in UTC).
        guard (earliestMillis...latestMillis).contains(total) else { return nil }
        return Date(timeIntervalSince1970: Double(total) / 1000)
    }

    /// 0000-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z, in milliseconds since 1970.
    static let earliestMillis = Int64(daysFromCivil(year: 0, month: 1, day: 1)) * 86_400_000
    static let latestMillis = Int64(daysFromCivil(year: 10_000, month: 1, day: 1)) * 86_400_000 - 1

    public static func format(_ date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        append(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `format`'s text appended to bytes being written (a dump's statement).
    public static func append(_ date: Date, to bytes: inout [UInt8]) {
        let totalMillis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let millis = Int(((totalMillis % 1000) + 1000) % 1000)
        let totalSeconds = (totalMillis - Int64(millis)) / 1000
        let days = Int(floorDiv(totalSeconds, 86_400))
        let secondOfDay = Int(totalSeconds - Int64(days) * 86_400)
        let (year, month, day) = civilFromDays(days)
        if (0...9999).contains(year) {
            // Digit by digit on the stack, then appended in one copy: formatting a page's dates
            // through small strings cost thousands of instructions each.
            let count = millis != 0 ? 24 : 20
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { text in
                func put(_ value: Int, _ width: Int, at offset: Int) {
                    var value = value
                    for position in stride(from: offset + width - 1, through: offset, by: -1) {
                        text[position] = UInt8(48 + value % 10)
                        value /= 10
                    }
                }
                put(year, 4, at: 0)
                put(month, 2, at: 5)
                put(day, 2, at: 8)
                put(secondOfDay / 3600, 2, at: 11)
                put(secondOfDay / 60 % 60, 2, at: 14)
                put(secondOfDay % 60, 2, at: 17)
                (text[4], text[7], text[10], text[13], text[16]) = (45, 45, 84, 58, 58)
                if millis != 0 {
                    text[19] = 46
                    put(millis, 3, at: 20)
                }
                text[count - 1] = 90
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[0..<count]))
            }
            return
        }
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        text += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if millis != 0 { text += "." + pad(millis, 3) }
        bytes.append(contentsOf: (text + "Z").utf8)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Howard Hinnant's days-from-civil: days since 1970-01-01 in the proleptic Gregorian calendar.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
