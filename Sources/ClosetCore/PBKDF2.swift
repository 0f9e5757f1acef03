/// HMAC-SHA256 (RFC 2104) and PBKDF2-HMAC-SHA256 (RFC 8018 §5.2), for password hashes.
/// The keyed inner and outer states are computed once per password, so each PBKDF2 round
/// costs two SHA-256 compressions and no allocation (OWASP's 600,000 rounds take a fraction
/// of a second in a release build).
public enum PBKDF2 {
    /// The inner and outer states of HMAC keyed with `key`.
    struct Keyed {
        var inner = SHA256.State()
        var outer = SHA256.State()

        init(_ key: [UInt8]) {
            var block = key.count > 64 ? SHA256.hash(key) : key
            block += [UInt8](repeating: 0, count: 64 - block.count)
            let innerPad = block.map { $0 ^ 0x36 }
            let outerPad = block.map { $0 ^ 0x5C }
            innerPad.withUnsafeBytes { inner.compress($0) }
            outerPad.withUnsafeBytes { outer.compress($0) }
        }

        func mac(_ message: [UInt8]) -> [UInt8] {
            let innerDigest = SHA256.finish(message, from: inner, prefixBlocks: 1)
            return SHA256.finish(innerDigest, from: outer, prefixBlocks: 1)
        }
    }

    package static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] { Keyed(key).mac(message) }

    /// The derived key: `length` bytes from `password` and `salt` after `iterations` rounds.
    public static func sha256(password: [UInt8], salt: [UInt8], iterations: Int, length: Int = 32) -> [UInt8] {
        let keyed = Keyed(password)
        var derived: [UInt8] = []
        var blockIndex: UInt32 = 1
        // One block of a 32-byte message after a keyed state: the message, 0x80, zeros, and
        // the length in bits of the key block and the message (768).
        var block = [UInt8](repeating: 0, count: 64)
        block[32] = 0x80
        block[62] = 0x03
        while derived.count < length {
            let first = salt + withUnsafeBytes(of: blockIndex.bigEndian) { Array($0) }
            var u = keyed.mac(first)
            var t = u
            block.withUnsafeMutableBytes { raw in
                for _ in 1..<max(1, iterations) {
                    u.withUnsafeBytes { raw.copyMemory(from: $0) }
                    var state = keyed.inner
                    state.compress(UnsafeRawBufferPointer(raw))
                    state.write(into: raw)
                    state = keyed.outer
                    state.compress(UnsafeRawBufferPointer(raw))
                    u.withUnsafeMutableBytes { state.write(into: $0) }
                    for i in 0..<32 { t[i] ^= u[i] }
                }
            }
            derived += t
            blockIndex += 1
        }
        return Array(derived.prefix(length))
    }
}
