import ClosetCore
import Foundation
import Testing

@testable import ClosetCrypto

/// SHA-256, HMAC-SHA256 and PBKDF2-HMAC-SHA256 against published vectors (FIPS 180-4's
/// examples, RFC 4231, RFC 7914 §11, each also what Python's hashlib computes), and the
/// stored hash's bounds.
@Suite struct PasswordHashTests {
    @Test(arguments: [false, true]) func sha256MatchesTheStandardsExamples(portable: Bool) {
        // On the SHA instructions (where the processor has them) and on the portable code.
        PBKDF2.forcePortable(portable)
        defer { PBKDF2.forcePortable(false) }
        #expect(
            SHA256.hex(SHA256.hash(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let long = Array(repeating: UInt8(ascii: "a"), count: 1000)
        #expect(SHA256.hex(SHA256.hash(long)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        let twoBlocks = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(
            SHA256.hex(SHA256.hash(twoBlocks)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func hmacMatchesRFC4231() {
        #expect(
            SHA256.hex(PBKDF2.hmac(key: Array(repeating: 0x0B, count: 20), message: Array("Hi There".utf8)))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(
            SHA256.hex(PBKDF2.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // A key longer than a block is hashed first.
        #expect(
            SHA256.hex(
                PBKDF2.hmac(
                    key: Array(repeating: 0xAA, count: 131),
                    message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func pbkdf2MatchesRFC7914() {
        #expect(
            SHA256.hex(
                PBKDF2.sha256(password: Array("passwd".utf8), salt: Array("salt".utf8), iterations: 1, length: 64))
                == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"
        )
        #expect(
            SHA256.hex(
                PBKDF2.sha256(
                    password: Array("Password".utf8), salt: Array("NaCl".utf8), iterations: 80_000, length: 64))
                == "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d"
        )
    }

    /// The SHA instructions and the portable code give the same keys, for passwords and salts
    /// of every length around the block sizes (and the instructions are used where present).
    @Test func theInstructionsAndThePortableCodeAgree() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 31, 32, 55, 56, 63, 64, 65, 100, 127, 128, 200] {
            let password = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let salt = (0..<(length % 70)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let fast = PBKDF2.sha256(password: password, salt: salt, iterations: 1000, length: 40)
            PBKDF2.forcePortable(true)
            let portable = PBKDF2.sha256(password: password, salt: salt, iterations: 1000, length: 40)
            PBKDF2.forcePortable(false)
            #expect(fast == portable, "length \(length)")
            // And HMAC's first round as the Swift SHA-256 computes it.
            let once = PBKDF2.sha256(password: password, salt: salt, iterations: 1, length: 32)
            #expect(once == PBKDF2.hmac(key: password, message: salt + [0, 0, 0, 1]), "length \(length)")
        }
        #if arch(x86_64)
            let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
            if cpuinfo.contains(" sha_ni") { #expect(PBKDF2.usesInstructions) }
        #endif
    }

    @Test func storedHashesAreWrittenAndBoundedOnRead() throws {
        let salt = Array(UInt8(0)..<16)
        let hash = PasswordHash(password: "hunter2", salt: salt, iterations: 10_000)
        #expect(
            hash.text
                == "pbkdf2-sha256$10000$000102030405060708090a0b0c0d0e0f$cef000bef1c43b047de293e1001f10b2f97e6e5dea7cf4b6719fc559b14912c5"
        )
        #expect(hash.matches("hunter2") && !hash.matches("hunter3") && !hash.matches(""))
        #expect(PasswordHash(text: hash.text) == hash)
        #expect(hash.iterations == 10_000 && !hash.isLegacy)
        #expect(hash.needsRehash(iterations: PasswordHash.standardIterations) && !hash.needsRehash(iterations: 10_000))
        let digest = String(repeating: "ab", count: 32)
        let salted = String(repeating: "0a", count: 16)
        // Counts outside the accepted range: a trivial hash, or one that would hang a check.
        for count in ["1", "9999", "10000001", "100000000000", "-5", "", "1e5", "010000x"] {
            #expect(PasswordHash(text: "pbkdf2-sha256$\(count)$\(salted)$\(digest)") == nil, "\(count)")
        }
        #expect(PasswordHash(text: "pbkdf2-sha256$10000$\(salted)$\(digest)") != nil)
        #expect(PasswordHash(text: "pbkdf2-sha256$10000$\(salted.uppercased())$\(digest)") == nil)
        #expect(PasswordHash(text: "pbkdf2-sha256$10000$\(salted)$\(digest)$") == nil)
        #expect(PasswordHash(text: "sha256-1$\(salted)$\(digest)") == nil)
        // Read from the store unparsed: text that is not a hash never matches, whatever its shape.
        #expect(PasswordHash(storedText: hash.text).matches("hunter2"))
        // A real one-round hash of the right password: trivial to attack, so never accepted.
        let oneRound = SHA256.hex(PBKDF2.sha256(password: Array("hunter2".utf8), salt: salt, iterations: 1))
        let forged = "pbkdf2-sha256$1$\(SHA256.hex(salt))$\(oneRound)"
        for text in [forged, hash.text.uppercased(), hash.text + "$", "", "hunter2"] {
            #expect(!PasswordHash(storedText: text).matches("hunter2"), "\(text)")
        }
    }

    /// Hashes earlier builds wrote still verify (this one from the market golden's dump of
    /// `password=abcd`), and ask to be replaced.
    @Test func legacyHashesStillVerify() throws {
        let legacy = try #require(
            PasswordHash(
                text:
                    "sha256-4096$3ee5789041c94ac3b3b8488c368cb0a6$b25380e873e3dc5b9f7d28553629e6bfd22634758062eba920b3448051d4226e"
            ))
        #expect(legacy.isLegacy && legacy.iterations == nil)
        #expect(legacy.matches("abcd") && !legacy.matches("abce"))
        #expect(legacy.needsRehash(iterations: PasswordHash.testIterations))
    }

    /// The byte-level check against a regular expression, over edits of both kinds of hash
    /// (a byte replaced, inserted or dropped, digits of the count changed).
    @Test func acceptsExactlyTheHashShape() throws {
        let modern = try Regex("^pbkdf2-sha256\\$([0-9]{1,9})\\$[0-9a-f]{32}\\$[0-9a-f]{64}$")
        let legacy = try Regex("^sha256-4096\\$[0-9a-f]{32}\\$[0-9a-f]{64}$")
        let seeds = [
            "pbkdf2-sha256$10000$" + String(repeating: "0a", count: 16) + "$" + String(repeating: "ab", count: 32),
            "sha256-4096$" + String(repeating: "3e", count: 16) + "$" + String(repeating: "b2", count: 32),
        ]
        let alphabet = Array("0123456789abcdefAF$-xé ".unicodeScalars)
        var random = SplitMix64(seed: 24)
        for round in 0..<4_000 {
            var scalars = Array(seeds[round % 2].unicodeScalars)
            for _ in 0...Int(random.next() % 2) {
                let at = Int(random.next() % UInt64(scalars.count))
                let scalar = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 3 {
                case 0: scalars[at] = scalar
                case 1: scalars.insert(scalar, at: at)
                default: scalars.remove(at: at)
                }
            }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            let expected: Bool
            if let match = text.wholeMatch(of: modern), let count = Int(match.output[1].substring ?? "") {
                expected = PasswordHash.acceptedIterations.contains(count)
            } else {
                expected = text.wholeMatch(of: legacy) != nil
            }
            #expect((PasswordHash(text: text) != nil) == expected, "\(text)")
        }
    }
}
