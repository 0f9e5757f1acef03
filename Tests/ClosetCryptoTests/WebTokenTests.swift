import Foundation
import Testing

@testable import ClosetCrypto

/// JSON Web Tokens (HS256) against RFC 7515 §A.1's example and Python's hmac, and the refusals
/// the community API's 401s rest on.
@Suite struct WebTokenTests {
    /// RFC 7515 §A.1: its key (a JWK's `k`), and the token it signs.
    static let rfcKey = Base64URL.decode(
        "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow")!
    static let rfcToken =
        "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"

    @Test func theRFCsExampleVerifiesAndAnyChangeToItIsForged() throws {
        let claims = try WebToken.signedClaims(Self.rfcToken, key: Self.rfcKey)
        #expect(
            String(decoding: claims, as: UTF8.self)
                == "{\"iss\":\"joe\",\r\n \"exp\":1300819380,\r\n \"http://example.com/is_root\":true}")
        // One character of the claims changed, the signature kept.
        var changed = Array(Self.rfcToken)
        changed[50] = changed[50] == "A" ? "B" : "A"
        #expect(throws: WebToken.Refusal.forged) { try WebToken.signedClaims(String(changed), key: Self.rfcKey) }
        #expect(throws: WebToken.Refusal.forged) { try WebToken.signedClaims(Self.rfcToken, key: Array("other".utf8)) }
    }

    @Test func aSignedTokenIsWhatPythonsHMACSigns() throws {
        let key = Array("a key kept in the store".utf8)
        let token = WebToken(subject: "민지", use: .access, issuedAt: 1_704_067_200, expiresAt: 1_704_068_100, id: "7")
            .signed(key: key)
        let parts = token.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        let script = """
            import base64, hashlib, hmac, sys
            signing, key = sys.argv[1], sys.argv[2]
            print(base64.urlsafe_b64encode(hmac.new(key.encode(), signing.encode(), hashlib.sha256).digest()).rstrip(b"=").decode())
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", script, parts[0] + "." + parts[1], "a key kept in the store"]
        let out = Pipe()
        python.standardOutput = out
        try python.run()
        python.waitUntilExit()
        let signature = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(signature.trimmingCharacters(in: .whitespacesAndNewlines) == parts[2])
        #expect(String(decoding: Base64URL.decode(parts[0])!, as: UTF8.self) == #"{"alg":"HS256","typ":"JWT"}"#)
        #expect(
            String(decoding: Base64URL.decode(parts[1])!, as: UTF8.self)
                == #"{"exp":1704068100,"iat":1704067200,"jti":"7","sub":"민지","typ":"access"}"#)
        let read = try WebToken.verified(token, key: key, now: 1_704_067_300)
        #expect(read.subject == "민지" && read.use == .access && read.id == "7")
    }

    @Test func expiredAlgorithmNoneAndGarbageAreRefused() throws {
        let key = Array("k".utf8)
        let token = WebToken(subject: "a", use: .refresh, issuedAt: 0, expiresAt: 100, id: "1").signed(key: key)
        #expect(throws: WebToken.Refusal.expired) { try WebToken.verified(token, key: key, now: 100) }
        #expect(try WebToken.verified(token, key: key, now: 99).use == .refresh)
        // `alg: none` with the signature dropped, or with this signature kept: never accepted.
        let none = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8))
        let claims = token.split(separator: ".")[1]
        #expect(throws: WebToken.Refusal.malformed) { try WebToken.verified("\(none).\(claims).", key: key, now: 0) }
        let kept = token.split(separator: ".")[2]
        #expect(throws: WebToken.Refusal.malformed) {
            try WebToken.verified("\(none).\(claims).\(kept)", key: key, now: 0)
        }
        for garbage in ["", "a.b", "a.b.c.d", "....", "%%.%%.%%", String(repeating: "A", count: 5000)] {
            #expect(throws: WebToken.Refusal.malformed) { try WebToken.verified(garbage, key: key, now: 0) }
        }
    }

    @Test func base64URLRoundTripsAndRefusesOtherSpellings() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(text) == bytes)
            #expect(
                text
                    == Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                    .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: ""))
        }
        // Padding, the standard alphabet, an impossible length, bits past the last byte.
        for refused in ["QQ==", "a+b/", "A", "QR"] { #expect(Base64URL.decode(refused) == nil, "\(refused)") }
        #expect(Base64URL.decode("QQ") == [0x41])
    }
}
