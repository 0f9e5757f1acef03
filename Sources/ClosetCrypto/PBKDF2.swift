import CSHA256

/// HMAC-SHA256 (RFC 2104) and PBKDF2-HMAC-SHA256 (RFC 8018 §5.2), for password hashes. PBKDF2
/// runs in C (`CSHA256`): the keyed inner and outer states computed once per password, each
/// round two SHA-256 compressions on the processor's SHA instructions where it has them.
public enum PBKDF2 {
    /// HMAC-SHA256 as RFC 2104 writes it (two hashes over the padded key), for tests that hold
    /// PBKDF2's first round to it: it shares only the hash with the C rounds.
    package static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = SHA256.hash(block.map { $0 ^ 0x36 } + message)
        return SHA256.hash(block.map { $0 ^ 0x5C } + inner)
    }

    /// The derived key: `length` bytes from `password` and `salt` after `iterations` rounds,
    /// on the processor's SHA-256 instructions when it has them (`CSHA256`).
    public static func sha256(password: [UInt8], salt: [UInt8], iterations: Int, length: Int = 32) -> [UInt8] {
        var derived = [UInt8](repeating: 0, count: max(0, length))
        let rounds = UInt32(clamping: max(1, iterations))
        derived.withUnsafeMutableBufferPointer { out in
            password.withUnsafeBufferPointer { password in
                salt.withUnsafeBufferPointer { salt in
                    closet_pbkdf2_sha256(
                        password.baseAddress, password.count, salt.baseAddress, salt.count, rounds, out.baseAddress,
                        out.count)
                }
            }
        }
        return derived
    }

    /// Whether the processor's SHA instructions do the work (else portable C); `portable`
    /// makes later calls use the portable code, for the tests that hold the two to each other.
    package static var usesInstructions: Bool { closet_sha256_uses_instructions() != 0 }
    package static func forcePortable(_ portable: Bool) { closet_sha256_force_portable(portable ? 1 : 0) }
}
