import Foundation

/// A case-insensitive substring search (`search=knit`), answered over UTF-8 bytes as a row stores
/// them wherever bytes alone decide it: text of ASCII (CR aside) and precomposed Hangul syllables,
/// where every scalar is a character of its own, only ASCII letters have a case and no two
/// spellings are canonically equal. Anything else (accents, combining marks, jamo, the Kelvin sign,
/// `ß`, CR LF) is left to Foundation's comparison, so both ways give the same answer.
public struct TextSearch: Sendable {
    public let text: String
    /// The text's bytes with ASCII letters lowered; nil when bytes cannot decide for it.
    @usableFromInline let folded: [UInt8]?

    public init(_ text: String) {
        self.text = text
        let bytes = Array(text.utf8)
        folded = bytes.withUnsafeBytes { Self.isPlain($0) } ? bytes.map { Self.lowered($0) } : nil
    }

    /// Whether `string` contains the text, in any case.
    public func matches(_ string: String) -> Bool {
        var string = string
        if let answer = string.withUTF8({ matches(utf8: UnsafeRawBufferPointer($0)) }) { return answer }
        return string.range(of: text, options: .caseInsensitive) != nil
    }

    /// `matches` over stored UTF-8, nil when only Foundation can tell (the caller decodes then).
    @inlinable public func matches(utf8 bytes: UnsafeRawBufferPointer) -> Bool? {
        guard let folded, Self.isPlain(bytes) else { return nil }
        guard let first = folded.first else { return true }
        let count = bytes.count
        let length = folded.count
        guard length <= count else { return false }
        return folded.withUnsafeBufferPointer { needle in
            var start = 0
            while start <= count - length {
                if Self.lowered(bytes[start]) == first {
                    var at = 1
                    while at < length, Self.lowered(bytes[start + at]) == needle[at] { at += 1 }
                    if at == length { return true }
                }
                start += 1
            }
            return false
        }
    }

    @inlinable static func lowered(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }

    /// Valid UTF-8 of ASCII other than CR and Hangul syllables (U+AC00–U+D7A3) alone: text where a
    /// byte match is a character match.
    @inlinable static func isPlain(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        var at = 0
        while at < count {
            // Eight ASCII bytes with no CR at once (a zero byte of `word ^ CRs` marks a CR).
            if at + 8 <= count {
                let word = bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)
                let carriageReturns = word ^ 0x0D0D_0D0D_0D0D_0D0D
                let zeroByte = (carriageReturns &- 0x0101_0101_0101_0101) & ~carriageReturns & 0x8080_8080_8080_8080
                if (word | zeroByte) & 0x8080_8080_8080_8080 == 0 {
                    at += 8
                    continue
                }
            }
            let lead = bytes[at]
            if lead < 0x80 {
                if lead == 0x0D { return false }
                at += 1
                continue
            }
            // EA B0 80 (U+AC00) through ED 9E A3 (U+D7A3).
            guard at + 2 < count, lead >= 0xEA, lead <= 0xED else { return false }
            let second = bytes[at + 1]
            let third = bytes[at + 2]
            guard second & 0xC0 == 0x80, third & 0xC0 == 0x80 else { return false }
            if lead == 0xEA, second < 0xB0 { return false }
            if lead == 0xED, second > 0x9E || (second == 0x9E && third > 0xA3) { return false }
            at += 3
        }
        return true
    }
}
