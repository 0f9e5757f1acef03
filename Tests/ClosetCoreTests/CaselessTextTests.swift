import Testing

@testable import ClosetCore

/// The quick lowercasing gives exactly what `lowercased()` gives.
@Suite struct CaselessTextTests {
    @Test func itIsLowercased() {
        let samples = [
            "", "top", "TOP", "Top Outer", "니트", "서울특별시", "ㄱㄴㄷ", "한글 ABC", "abc 한글", "É", "Straße", "ΑΒΓ",
            "İstanbul", "ꥠ", "ힰ", "가-힣_123", "🙂", "mixed 니트 Ä", "\u{0}",
        ]
        for sample in samples { #expect(sample.lowercasedQuickly == sample.lowercased(), "\(sample)") }
        // ASCII with capitals is lowered byte by byte: every ASCII character, alone and together,
        // and an id as a statement gives it.
        let ascii = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        for text in ascii + [ascii.joined(), "6543635F-494B-4C19-9F13-B339E82D746A", "ZZ top", "a@[Z`{"] {
            #expect(text.lowercasedQuickly == text.lowercased(), "\(text.debugDescription)")
        }
        // Every scalar of the ranges it passes through unchanged has no lowercase of its own.
        for range in [0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xD7B0...0xD7FF] {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let text = String(scalar)
                #expect(text.lowercased() == text)
            }
        }
    }
}
