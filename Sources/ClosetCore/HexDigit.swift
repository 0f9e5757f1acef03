/// Hexadecimal digits read from bytes (ids, the language's `\u{...}` escapes, `%XX` escapes)
/// and written as bytes (ids, blob names).
package enum HexDigit {
    /// The uppercase ASCII digit of the low four bits of `value`.
    @inlinable package static func uppercase(_ value: UInt8) -> UInt8 {
        let nibble = value & 15
        return nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }

    /// The value of an ASCII hex digit in either case; nil for any other byte.
    @inlinable package static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
