import Foundation

/// A JSON Web Token signed with HMAC-SHA256 (RFC 7519 with RFC 7515's `HS256`): what the
/// community API gives a signed-in client. Its claims are the few that API needs: who (`sub`),
/// what it is for (`typ`: access or refresh), when it was made and ends (`iat`, `exp`, seconds
/// since 1970) and its own id (`jti`, what a refresh token's rotation names).
///
/// Checking is strict on purpose: the header must say `HS256` (a token saying `none` or
/// another algorithm is refused before any signature is read), the signature is compared in
/// full whatever it holds, and a token longer than `maximumLength` is refused unread.
public struct WebToken: Sendable, Hashable {
    public var subject: String
    public var use: Use
    public var issuedAt: Int
    public var expiresAt: Int
    public var id: String

    public enum Use: String, Sendable {
        case access, refresh
    }

    /// Why a token is refused: the API's 401 names it.
    public enum Refusal: Error, Sendable, Equatable {
        /// Not three base64url parts of JSON, not `HS256`, or claims missing.
        case malformed
        /// Signed with another key, or changed after signing.
        case forged
        case expired
    }

    /// A header, claims and a signature of this size are far below it; a client's header line
    /// holds at most a few KiB anyway.
    public static let maximumLength = 4096

    public init(subject: String, use: Use, issuedAt: Int, expiresAt: Int, id: String) {
        self.subject = subject
        self.use = use
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.id = id
    }

    /// `header.claims.signature`, each part base64url without padding. The claims' keys are
    /// sorted, so the same token is the same text (goldens, fixtures).
    public func signed(key: [UInt8]) -> String {
        let claims: [String: Any] = ["sub": subject, "typ": use.rawValue, "iat": issuedAt, "exp": expiresAt, "jti": id]
        let payload = (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])) ?? Data()
        let signing = Self.header + "." + Base64URL.encode(Array(payload))
        return signing + "." + Base64URL.encode(PBKDF2.hmac(key: key, message: Array(signing.utf8)))
    }

    /// The token's claims once its signature and expiry are checked at `now` (seconds since 1970).
    public static func verified(_ token: String, key: [UInt8], now: Int) throws(Refusal) -> WebToken {
        let payload = try signedClaims(token, key: key)
        guard let claims = (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any],
            let subject = claims["sub"] as? String, let use = (claims["typ"] as? String).flatMap(Use.init(rawValue:)),
            let issuedAt = claims["iat"] as? Int, let expiresAt = claims["exp"] as? Int,
            let id = claims["jti"] as? String
        else { throw .malformed }
        guard now < expiresAt else { throw .expired }
        return WebToken(subject: subject, use: use, issuedAt: issuedAt, expiresAt: expiresAt, id: id)
    }

    /// The claims' bytes of any HS256 token whose signature `key` made (RFC 7515 §A.1's
    /// example among them), whatever claims it holds.
    package static func signedClaims(_ token: String, key: [UInt8]) throws(Refusal) -> [UInt8] {
        guard token.utf8.count <= maximumLength else { throw .malformed }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
            let header = (try? JSONSerialization.jsonObject(with: Data(headerBytes))) as? [String: Any],
            header["alg"] as? String == "HS256", let signature = Base64URL.decode(parts[2]), signature.count == 32,
            let payload = Base64URL.decode(parts[1])
        else { throw .malformed }
        let signing = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        var difference: UInt8 = 0
        for (x, y) in zip(PBKDF2.hmac(key: key, message: signing), signature) { difference |= x ^ y }
        guard difference == 0 else { throw .forged }
        return payload
    }

    /// `{"alg":"HS256","typ":"JWT"}`, encoded.
    static let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
}

/// Base64 with the URL's alphabet and no padding (RFC 4648 §5), as JSON Web Tokens write it.
package enum Base64URL {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    package static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = 0
            for (offset, byte) in chunk.enumerated() { value |= Int(byte) << (16 - 8 * offset) }
            for position in 0...chunk.count { out.append(alphabet[(value >> (18 - 6 * position)) & 63]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Nil for a character outside the alphabet, padding, or a length no encoding has.
    package static func decode<Text: StringProtocol>(_ text: Text) -> [UInt8]? {
        var values: [Int] = []
        values.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(Int(byte) - 65)
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(Int(byte) - 71)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(Int(byte) + 4)
            case UInt8(ascii: "-"): values.append(62)
            case UInt8(ascii: "_"): values.append(63)
            default: return nil
            }
        }
        guard values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 3 / 4)
        var index = 0
        while index < values.count {
            let chunk = values[index..<min(index + 4, values.count)]
            var value = 0
            for (offset, digit) in chunk.enumerated() { value |= digit << (18 - 6 * offset) }
            for position in 0..<(chunk.count - 1) { out.append(UInt8((value >> (16 - 8 * position)) & 255)) }
            // Bits past the last byte must be zero: one token has one spelling.
            if chunk.count == 2, (value >> 12) & 0xF != 0 { return nil }
            if chunk.count == 3, (value >> 6) & 0x3 != 0 { return nil }
            index += 4
        }
        return out
    }
}
