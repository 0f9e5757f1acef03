/// A password kept as a salted, slow hash, never the password. Written as
/// `pbkdf2-sha256$<iterations>$<salt hex>$<hash hex>` (PBKDF2-HMAC-SHA256, RFC 8018, a
/// 16-byte salt and a 32-byte hash); earlier builds wrote `sha256-4096$<salt>$<hash>`
/// (iterated SHA-256), which still verifies and is replaced at its next successful check.
/// The iteration count is read from stored text, so it is bounded on read: a forged count
/// can neither make a hash trivial to attack nor make checking it hang. Checking compares
/// every byte (no early exit on the first difference).
public struct PasswordHash: Hashable, Sendable {
    /// OWASP's count for PBKDF2-HMAC-SHA256 (2023): what new hashes use.
    public static let standardIterations = 600_000
    /// What `--deterministic` sessions use (golden tests; their salts repeat anyway, so
    /// their hashes are for tests only): the lowest count accepted.
    public static let testIterations = 10_000
    /// The counts a stored hash may name: at most twice the standard, so checking any stored
    /// hash (from a dump, `hash=`, an import) costs at most two standard checks — a forged
    /// count cannot make one request hold a worker for seconds.
    public static let acceptedIterations = 10_000...1_200_000
    static let prefix = "pbkdf2-sha256$"
    static let legacyPrefix = "sha256-4096$"

    public var text: String

    /// A stored hash, or nil for text that is not one this build accepts.
    public init?(text: String) {
        var text = text
        guard text.withUTF8(Self.isWellFormed) else { return nil }
        self.text = text
    }

    /// `pbkdf2-sha256$<iterations>$<salt>$<digest>` or `sha256-4096$<salt>$<digest>`, the salt 16
    /// and the digest 32 bytes in lowercase hex. Checked as bytes: splitting the text as
    /// characters cost 50,000 instructions a product when a market was seeded.
    private static func isWellFormed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func starts(with prefix: String) -> Bool {
            bytes.count >= prefix.utf8.count && zip(bytes, prefix.utf8).allSatisfy { $0 == $1 }
        }
        let legacy = starts(with: legacyPrefix)
        guard legacy || starts(with: prefix) else { return false }
        var fields: [Range<Int>] = []
        var start = legacy ? legacyPrefix.utf8.count : prefix.utf8.count
        for index in start..<bytes.count where bytes[index] == UInt8(ascii: "$") {
            fields.append(start..<index)
            start = index + 1
        }
        fields.append(start..<bytes.count)
        func isHex(_ field: Range<Int>, bytes count: Int) -> Bool {
            field.count == count * 2 && bytes[field].allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        }
        if legacy { return fields.count == 2 && isHex(fields[0], bytes: 16) && isHex(fields[1], bytes: 32) }
        guard fields.count == 3, (1...9).contains(fields[0].count),
            bytes[fields[0]].allSatisfy({ (48...57).contains($0) })
        else { return false }
        let iterations = bytes[fields[0]].reduce(0) { $0 * 10 + Int($1 - 48) }
        return acceptedIterations.contains(iterations) && isHex(fields[1], bytes: 16) && isHex(fields[2], bytes: 32)
    }

    /// A hash read from the store, kept as text and parsed only when a password is checked
    /// (`matches`, which refuses any text `init?(text:)` refuses): listing 20 products does
    /// not parse 20 hashes. Text that is not a hash never matches.
    public init(storedText: String) { text = storedText }

    /// A new hash of `password` with `salt` (16 random bytes, from the caller's id source).
    public init(password: String, salt: [UInt8], iterations: Int = standardIterations) {
        let iterations = min(max(iterations, Self.acceptedIterations.lowerBound), Self.acceptedIterations.upperBound)
        let digest = PBKDF2.sha256(password: Array(password.utf8), salt: salt, iterations: iterations)
        text = Self.prefix + "\(iterations)$\(SHA256.hex(salt))$\(SHA256.hex(digest))"
    }

    /// Written by an earlier build (iterated SHA-256).
    package var isLegacy: Bool { text.hasPrefix(Self.legacyPrefix) }

    /// PBKDF2's iteration count (nil for a legacy hash).
    public var iterations: Int? {
        guard !isLegacy else { return nil }
        return Int(text.dropFirst(Self.prefix.count).prefix { $0 != "$" })
    }

    /// Whether a successful check should store a new hash: a legacy one, or one cheaper than
    /// what new hashes cost now.
    public func needsRehash(iterations target: Int) -> Bool { iterations.map { $0 < target } ?? true }

    public func matches(_ password: String) -> Bool {
        guard PasswordHash(text: text) != nil else { return false }
        let parts = text.split(separator: "$", omittingEmptySubsequences: false).map(String.init)
        let actual: [UInt8]
        let salt: [UInt8]
        let expected: String
        if isLegacy {
            guard parts.count == 3 else { return false }
            salt = Self.bytes(parts[1])
            expected = parts[2]
            var digest = SHA256.hash(salt + Array(password.utf8))
            for _ in 1..<4096 { digest = SHA256.hash(digest + salt) }
            actual = digest
        } else {
            guard parts.count == 4, let iterations = Int(parts[1]), Self.acceptedIterations.contains(iterations) else {
                return false
            }
            salt = Self.bytes(parts[2])
            expected = parts[3]
            actual = PBKDF2.sha256(password: Array(password.utf8), salt: salt, iterations: iterations)
        }
        let shown = SHA256.hex(actual)
        var difference: UInt8 = expected.utf8.count == shown.utf8.count ? 0 : 1
        for (x, y) in zip(expected.utf8, shown.utf8) { difference |= x ^ y }
        return difference == 0
    }

    static func bytes(_ hex: String) -> [UInt8] {
        let utf8 = Array(hex.utf8)
        return stride(from: 0, to: utf8.count - 1, by: 2).compactMap {
            UInt8(String(decoding: utf8[$0..<($0 + 2)], as: UTF8.self), radix: 16)
        }
    }
}
