/// Sizes as SPEC §2 writes them: a whole number with an optional unit B, KB, MB or GB
/// (powers of 1024, case-insensitive). Overflow is refused, never wrapped.
package enum ByteSize {
    public static func parse(_ text: String) -> Int? {
        let upper = text.uppercased()
        let units: [(String, Int)] = [("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10), ("B", 1)]
        var digits = Substring(upper)
        var scale = 1
        for (suffix, factor) in units where upper.hasSuffix(suffix) {
            digits = upper.dropLast(suffix.count)
            scale = factor
            break
        }
        // The whole-number rule, and the product within it too.
        guard let value = WholeNumber.value(digits) else { return nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: scale)
        return overflow || product > WholeNumber.maximum ? nil : product
    }

    /// `209715200` → `200MB`: the largest unit that divides exactly.
    public static func format(_ bytes: Int) -> String {
        for (suffix, factor) in [("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)]
        where bytes >= factor && bytes % factor == 0 {
            return "\(bytes / factor)\(suffix)"
        }
        return "\(bytes)B"
    }
}
