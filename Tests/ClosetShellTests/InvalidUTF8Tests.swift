import ClosetCore
import Foundation
import TestSupport
import Testing

/// Invalid UTF-8 is refused wherever text comes in, with its byte offset, and nothing of it is
/// stored (it was silently turned into U+FFFD before).
@Suite struct InvalidUTF8Tests {
    @Test func aLineOfStdinIsRefusedAndTheRestRuns() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary))
        let script =
            Array("add clothes category=top season=fall description=\"a".utf8) + [0xFF]
            + Array("b\"\ncount clothes\n".utf8)
        let result = try ProcessTests().run(["--store", ":memory:", "--format", "json"], stdinBytes: script)
        #expect(result.status == 1)
        #expect(result.err == "<stdin>:1: error: line 1 is not UTF-8 text: invalid byte at offset 51\n")
        #expect(result.out == "{\"count\":0}\n")
    }

    @Test func importRefusesAFileThatIsNotUTF8() {
        let harness = Harness()
        harness.host.binaryFiles["bad.csv"] = Array("category,season,description\r\ntop,fall,a".utf8) + [0xC3] + [10]
        #expect(!harness.run("import clothes from=bad.csv"))
        #expect(harness.host.standardError.hasPrefix("error: 'bad.csv' is not UTF-8 text: invalid byte at offset 39"))
        #expect(harness.store.clothesCount == 0)
    }

    @Test func offsetsPointAtTheFirstBadByte() {
        #expect(UTF8Text.firstInvalidOffset(Array("ab니트".utf8)) == nil)
        #expect(UTF8Text.firstInvalidOffset(Array("ab".utf8) + [0xE0, 0x80, 0x80]) == 2)  // overlong
        #expect(UTF8Text.firstInvalidOffset(Array("니".utf8) + [0xED, 0xA0, 0x80]) == 3)  // a surrogate
        #expect(UTF8Text.firstInvalidOffset([0x41, 0xF4, 0x90, 0x80, 0x80]) == 1)  // past U+10FFFF
    }

    /// The offset in memory is the one the standard library's UTF-8 parser reports, on random
    /// bytes drawn mostly from lead and continuation bytes and around every boundary of the
    /// well-formed table (overlong forms, surrogates, past U+10FFFF, cut short).
    @Test func offsetsInMemoryAreTheParsers() {
        // A sequence without contiguous storage is read by the standard library's parser.
        func parsed(_ bytes: [UInt8]) -> Int? { UTF8Text.firstInvalidOffset(bytes.lazy.map { $0 }) }
        let interesting: [UInt8] = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE,
            0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
        ]
        var random = SeededRandom(seed: 8)
        var invalid = 0
        for _ in 0..<20_000 {
            var bytes: [UInt8] = Array(repeating: 0x61, count: Int.random(in: 0..<12, using: &random))
            for _ in 0..<Int.random(in: 0..<6, using: &random) {
                bytes.append(interesting.randomElement(using: &random)!)
            }
            bytes += Array(repeating: 0x62, count: Int.random(in: 0..<10, using: &random))
            let offset = bytes.withUnsafeBufferPointer { UTF8Text.firstInvalidOffset(in: $0) }
            #expect(offset == parsed(bytes), "\(bytes)")
            if offset != nil { invalid += 1 }
        }
        #expect(invalid > 5_000 && invalid < 19_000)
    }

    /// `decode` takes our own scan for short text and the standard library's validation for
    /// long: either way it gives what `String(validating:)` gives, or the first bad byte.
    @Test func decodingIsTheStandardLibrarysValidation() {
        func expectSame(_ bytes: [UInt8]) {
            switch UTF8Text.decode(bytes) {
            case .success(let text): #expect(String(validating: bytes, as: UTF8.self) == text)
            case .failure(let invalid):
                #expect(String(validating: bytes, as: UTF8.self) == nil)
                #expect(invalid.offset == UTF8Text.firstInvalidOffset(bytes.lazy.map { $0 }))
            }
        }
        var random = SeededRandom(seed: 9)
        let pieces: [[UInt8]] = [
            Array("니트 knit ".utf8), [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF0, 0x90, 0x80], [0xC3], [0xFF],
            Array("\u{10FFFF}".utf8),
        ]
        for length in [0, 10, 100, (1 << 16) - 3, 1 << 16, 70_000] {
            for _ in 0..<20 {
                var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                if !bytes.isEmpty, Bool.random(using: &random) {
                    let piece = pieces.randomElement(using: &random)!
                    let at = Int.random(in: 0..<bytes.count, using: &random)
                    bytes.replaceSubrange(at..<min(bytes.count, at + piece.count), with: piece)
                }
                expectSame(bytes)
            }
        }
    }
}
