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
}
