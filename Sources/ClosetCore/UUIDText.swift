import Foundation

extension UUID {
    /// `uuidString`, formatted here: Foundation's goes through `snprintf`, which was most of
    /// what a served page of twenty products cost once the JSON was written by hand.
    public var text: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { buffer in
                let digits: StaticString = "0123456789ABCDEF"
                var at = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        buffer[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    buffer[at] = digits.utf8Start[Int(byte >> 4)]
                    buffer[at + 1] = digits.utf8Start[Int(byte & 15)]
                    at += 2
                }
                return at
            }
        }
    }
}
