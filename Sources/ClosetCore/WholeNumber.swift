/// The one rule for a whole number a user or a client gives (a key's value, a page or an id in
/// a served path, a query value): ASCII digits only, leading zeros allowed, from 0 to
/// `maximum`. Checked before any arithmetic, so a page times its size, or an id plus one,
/// never overflows; `1e9`, `0x10`, `-1` and `+1` are not whole numbers here.
public enum WholeNumber {
    /// 2^53 − 1: the largest integer a JSON reader that keeps numbers as doubles (JavaScript,
    /// Foundation's) reads exactly, and far enough from `Int.max` that arithmetic on it is safe.
    public static let maximum = 9_007_199_254_740_991

    public enum Problem: Error, Equatable {
        /// Not digits at all.
        case notANumber
        /// Digits, but past `maximum`.
        case tooLarge
    }

    // Inlinable so each caller's string type is specialized: unspecialized, the first call
    // looked up the type's UTF-8 view at run time, a tenth of a millisecond of a new process.
    @inlinable public static func parse(_ text: some StringProtocol) -> Result<Int, Problem> {
        var value = 0
        var seen = false
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return .failure(.notANumber) }
            seen = true
            // Past the maximum, the rest are still read: `12x` is not a number, however long.
            if value <= maximum { value = value * 10 + Int(byte - UInt8(ascii: "0")) }
        }
        guard seen else { return .failure(.notANumber) }
        return value <= maximum ? .success(value) : .failure(.tooLarge)
    }

    /// The number, or nil for anything else (not digits, too large).
    @inlinable public static func value(_ text: some StringProtocol) -> Int? {
        if case .success(let value) = parse(text) { value } else { nil }
    }
}
