import Foundation

/// Text must arrive as valid UTF-8 everywhere (arguments, stdin, scripts, imports): invalid
/// bytes are refused with their offset instead of being silently changed to U+FFFD and stored.
package enum UTF8Text {
    /// The offset of the first byte that is not part of valid UTF-8, or nil if all are.
    package static func firstInvalidOffset<Bytes: Sequence>(_ bytes: Bytes) -> Int? where Bytes.Element == UInt8 {
        if let offset = bytes.withContiguousStorageIfAvailable({ firstInvalidOffset(in: $0) }) { return offset }
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

    /// `firstInvalidOffset` over bytes in memory: eight ASCII bytes at a time, and each other
    /// sequence checked against the Unicode standard's table of well-formed UTF-8 (no
    /// overlong forms, surrogates or scalars past U+10FFFF). The iterator's parser took ten
    /// instructions a byte, and a line of stdin or a script is checked this way.
    package static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = 0
        while index < count {
            if index + 8 <= count,
                UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
                continue
            }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            // The second byte's range depends on the lead byte; later ones are 80...BF.
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, low) = (3, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: (length, high) = (3, 0x9F)
            case 0xF0: (length, low) = (4, 0x90)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, high) = (4, 0x8F)
            default: return index
            }
            guard index + length <= count, base[index + 1] >= low, base[index + 1] <= high else { return index }
            for next in 2..<length where base[index + next] & 0xC0 != 0x80 { return index }
            index += length
        }
        return nil
    }

    /// Text of at most `capacity` bytes that `fill` writes straight into the string's own
    /// storage (returning how many, or nil when it cannot): a script is held once, not as its
    /// bytes and then a copy, and checked once, by the standard library. Nil too when that
    /// check may have replaced something (the text holds U+FFFD or changed length): the caller
    /// then reads the bytes again to find the offset to report (or a U+FFFD written as such).
    package static func text(capacity: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) throws -> Int?) rethrows
        -> String?
    {
        var filled: Int?
        var text = try String(unsafeUninitializedCapacity: capacity) { buffer in
            filled = try fill(buffer)
            return filled ?? 0
        }
        guard let filled, text.utf8.count == filled else { return nil }
        let replaced: Bool = text.withUTF8 { bytes in
            guard var at = bytes.baseAddress else { return false }
            let end = at + bytes.count
            // U+FFFD is EF BF BD; 0xEF leads few other characters.
            while let found = memchr(at, 0xEF, end - at) {
                let lead = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
                if end - lead >= 3, lead[1] == 0xBF, lead[2] == 0xBD { return true }
                at = lead + 1
            }
            return false
        }
        return replaced ? nil : text
    }

    /// The text, or the offset of its first invalid byte.
    public static func decode(_ bytes: [UInt8]) -> Result<String, InvalidUTF8> {
        // Short text (a process's arguments, most scripts) is checked by our own scan, then
        // made by the initializer specialized for UTF-8: the generic `String(validating:as:)`
        // instantiates its metadata on a process's first call (60 µs of every `closet -c`).
        // Long text takes its one pass; the offset is only looked for when there is something
        // to report.
        if bytes.count < 1 << 16 {
            if let offset = bytes.withUnsafeBufferPointer({ firstInvalidOffset(in: $0) }) {
                return .failure(InvalidUTF8(offset: offset))
            }
            return .success(String(decoding: bytes, as: UTF8.self))
        }
        if let text = String(validating: bytes, as: UTF8.self) { return .success(text) }
        return .failure(InvalidUTF8(offset: firstInvalidOffset(bytes) ?? 0))
    }
}

/// Bytes that are not UTF-8 text, from this offset on.
package struct InvalidUTF8: Error, Hashable, Sendable {
    public var offset: Int
    public init(offset: Int) { self.offset = offset }
}
