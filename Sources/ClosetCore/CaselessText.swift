extension String {
    /// `lowercased()`, without its cost where it changes nothing: ASCII with no capital, and
    /// Hangul (which has no case) with ASCII. The standard library's Unicode path costs
    /// thousands of instructions for a Korean word, and every vocabulary and entity word is
    /// lowercased when the registry is built; every key of every statement is too.
    package var lowercasedQuickly: String {
        // ASCII first, as bytes: the common case, and a fraction of decoding scalars.
        let ascii: Bool? = utf8.withContiguousStorageIfAvailable { bytes in
            // True: nothing to lower; false: a capital or another script, decided below.
            var allASCII = true
            for byte in bytes {
                if byte >= 0x80 {
                    allASCII = false
                } else if byte >= 0x41, byte <= 0x5A {
                    return false
                }
            }
            return allASCII
        }
        if ascii == true { return self }
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x41...0x5A: return lowercased()
            case 0...0x7F, 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xD7B0...0xD7FF:
                continue
            default: return lowercased()
            }
        }
        return self
    }
}
