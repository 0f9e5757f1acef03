/// Text must arrive as valid UTF-8 everywhere (arguments, stdin, scripts, imports): invalid
/// bytes are refused with their offset instead of being silently changed to U+FFFD and stored.
package enum UTF8Text {
    /// The offset of the first byte that is not part of valid UTF-8, or nil if all are.
    package static func firstInvalidOffset<Bytes: Sequence>(_ bytes: Bytes) -> Int? where Bytes.Element == UInt8 {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// The text, or the offset of its first invalid byte.
    public static func decode(_ bytes: [UInt8]) -> Result<String, InvalidUTF8> {
        // The standard library's validation is one fast pass; the offset is only looked for
        // when there is something to report.
        if let text = String(validating: bytes, as: UTF8.self) { return .success(text) }
        return .failure(InvalidUTF8(offset: firstInvalidOffset(bytes) ?? 0))
    }
}

/// Bytes that are not UTF-8 text, from this offset on.
package struct InvalidUTF8: Error, Hashable, Sendable {
    public var offset: Int
    public init(offset: Int) { self.offset = offset }
}
