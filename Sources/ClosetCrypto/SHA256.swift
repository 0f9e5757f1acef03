import CSHA256

/// SHA-256 (FIPS 180-4), for password hashes: Foundation on Linux has no hash functions and no
/// other package may be used. The hashing itself is `CSHA256`'s (the processor's SHA
/// instructions where it has them), the one implementation PBKDF2 runs on too. Not for bulk data
/// (the store uses CRC-32C).
package enum SHA256 {
    public static func hash(_ message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        digest.withUnsafeMutableBufferPointer { out in
            message.withUnsafeBufferPointer { closet_sha256($0.baseAddress, $0.count, out.baseAddress) }
        }
        return digest
    }

    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
