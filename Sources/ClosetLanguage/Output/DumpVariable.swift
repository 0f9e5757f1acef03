/// A variable a dump binds an entity to, `$<prefix><number>` (`$c12`), so later statements can
/// name it: written into the script as bytes, never made a string for every row.
public struct DumpVariable: Sendable {
    public var prefix: String
    public var number: Int

    public init(_ prefix: String, _ number: Int) {
        self.prefix = prefix
        self.number = number
    }

    /// `$c12`, for statements that name it later.
    public var name: String { "$\(prefix)\(number)" }

    /// The name appended: `$`, the prefix, the number's digits.
    @inlinable func append(to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "$"))
        DumpWriter.append(utf8: prefix, to: &bytes)
        guard number >= 0 else {
            DumpWriter.append(utf8: String(number), to: &bytes)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var (value, at) = (number, 20)
            repeat {
                at -= 1
                digits[at] = UInt8(48 + value % 10)
                value /= 10
            } while value > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[at..<20]))
        }
    }
}
