import ClosetLanguage
import Foundation
import TestSupport
import Testing

/// Issue 45, item 3: numbers are JSON numbers (`.store`'s counts and sizes too), and JSON is
/// indented for people at a terminal while tools (pipes, files) get one value a line.
@Suite struct JSONShapeTests {
    @Test func theStoreSaysItsCountsAsNumbers() throws {
        let harness = Harness(format: .json)
        #expect(harness.run(#"add clothes category=top season=fall description="a""#))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(harness.output(".store").utf8)) as? [String: Any])
        #expect(object["clothes"] as? Int == 1)
        let images = try #require(object["images"] as? [String: Any])
        #expect(images["files"] as? Int == 0 && images["bytes"] as? Int == 0)
        // People read the same values in words.
        harness.session.settings.format = .table
        #expect(harness.output(".store").contains("images    0 files, 0 bytes"))
    }

    @Test func jsonIsIndentedAtATerminalAndCompactElsewhere() {
        let harness = Harness(format: .json)
        #expect(harness.output("count clothes") == "{\"count\":0}\n")
        harness.session.settings.terminalWidth = 80
        #expect(harness.output("count clothes") == "{\n  \"count\": 0\n}\n")
    }
}
