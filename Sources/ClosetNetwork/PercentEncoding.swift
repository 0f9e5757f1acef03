import ClosetCore

/// Strict percent-encoding: everything but RFC 3986's unreserved characters is escaped.
/// `URLComponents` leaves `+`, `/`, `=` and `&` alone in query values, and servers read `+`
/// as a space (a data.go.kr service key ends in `==` and often holds `+` and `/`).
public enum PercentEncoding {
    package static func strict(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// `%XX` escapes undone (and `+` as a space in a query); nil for a broken escape or bytes
    /// that are not UTF-8.
    public static func decoded(_ text: String, plusIsSpace: Bool) -> String? {
        // Most of what a client sends has nothing to decode.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "%") || ($0 == UInt8(ascii: "+") && plusIsSpace) }) {
            return text
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        func hex(_ byte: UInt8?) -> UInt8? { byte.flatMap(HexDigit.value) }
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = hex(iterator.next()), let low = hex(iterator.next()) else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace: bytes.append(UInt8(ascii: " "))
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// One path segment (an id a user typed): the same strict rule, so `/` cannot add one.
    public static func pathSegment(_ text: String) -> String { strict(text) }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
