import Foundation

extension UUID {
    /// `uuidString`, formatted here: Foundation's goes through `snprintf`, which was most of
    /// what a served page of twenty products cost once the JSON was written by hand.
    public var text: String {
        String(unsafeUninitializedCapacity: 36) { buffer in
            writeText(into: UnsafeMutableRawBufferPointer(buffer))
            return 36
        }
    }

    /// `text` appended to bytes being written (a dump's statement), without a string between.
    public func appendText(to bytes: inout [UInt8]) {
        // Made on the stack and appended in one copy (appending 36 zeros first went through the
        // generic sequence path, then a write with its bounds checks).
        withUnsafeTemporaryAllocation(byteCount: 36, alignment: 1) { buffer in
            writeText(into: buffer)
            bytes.append(contentsOf: UnsafeRawBufferPointer(buffer))
        }
    }

    /// The 36 characters into `buffer`'s first 36 bytes.
    private func writeText(into buffer: UnsafeMutableRawBufferPointer) {
        withUnsafeBytes(of: uuid) { bytes in
            var at = 0
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    buffer[at] = UInt8(ascii: "-")
                    at += 1
                }
                buffer[at] = HexDigit.uppercase(byte >> 4)
                buffer[at + 1] = HexDigit.uppercase(byte)
                at += 2
            }
        }
    }

    /// `UUID(uuidString:)`, read here: Foundation's goes through `sscanf` (8,000 instructions,
    /// and every statement naming an id parses one). The same strings: 36 characters, dashes
    /// after the 8th, 12th, 16th and 20th hex digit, digits in either case.
    public init?(text: String) {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var text = text
        let parsed = text.withUTF8 { utf8 -> Bool in
            guard utf8.count == 36 else { return false }
            return withUnsafeMutableBytes(of: &bytes) { out in
                var at = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        guard utf8[at] == UInt8(ascii: "-") else { return false }
                        at += 1
                    }
                    guard let high = HexDigit.value(utf8[at]), let low = HexDigit.value(utf8[at + 1]) else {
                        return false
                    }
                    out[index] = high << 4 | low
                    at += 2
                }
                return true
            }
        }
        guard parsed else { return nil }
        self.init(uuid: bytes)
    }
}
