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

/// Issue 45, item 3, from the registry alone: every command of every pack, run on a store of
/// random rows with random arguments, prints JSON in which each field its entity declares a
/// whole number (`price=`, `stock=`, an `amount=`) is a JSON number (or null), and every count
/// and cache figure too, never a string. A new pack's commands are covered without a line here.
@Suite struct EveryCommandsJSONTests {
    static let figures: Set<String> = ["count", "bytes", "countLimit", "byteLimit", "hits", "misses", "evictions"]

    @Test func declaredWholeNumbersAreJSONNumbersInEveryCommandsOutput() throws {
        let pictures = try RoundTripTests.pictureFiles()
        var maker = RoundTripTests.Maker(random: SeededRandom(seed: 45_003))
        var checked: [String: Int] = [:]
        var strings: [String] = []
        var outputs = 0
        for _ in 0..<4 {
            let (session, host, _, _) = try RoundTripTests().randomStore(&maker, files: pictures)
            session.settings.format = .json
            session.settings.confirm = false
            let registry = session.registry
            let kinds = registry.entityKinds
            let commands = registry.packs.flatMap { registry.commands(of: $0) }
            for spec in commands {
                let kind = spec.path.dropFirst().lazy.compactMap { word in
                    kinds.first { $0.plural == word || $0.singular == word }
                }.first
                for _ in 0..<3 {
                    guard let (text, _) = maker.statement(spec) else { continue }
                    // The statement itself, not bound to a variable.
                    let statement =
                        text.split(separator: "=", maxSplits: 1).last.map {
                            String($0.drop { $0 == " " })
                        } ?? text
                    host.clear()
                    _ = session.executeAndCommit(StatementSource(statement))
                    for line in host.standardOutput.split(separator: "\n") {
                        guard
                            let value = try? JSONSerialization.jsonObject(
                                with: Data(line.utf8), options: .fragmentsAllowed)
                        else {
                            Issue.record("'\(statement)' printed a line that is not JSON: \(line)")
                            continue
                        }
                        outputs += 1
                        let objects = (value as? [Any]) ?? [value]
                        for case let object as [String: Any] in objects {
                            let declared = kind?.wholeNumberFields ?? []
                            for (name, field) in object where declared.contains(name) || Self.figures.contains(name) {
                                checked[name, default: 0] += 1
                                if field is String { strings.append("\(spec.name): \(name) = \"\(field)\"") }
                            }
                            // A removed product's id is its number; a saved photo's is Unsplash's text.
                            if let removed = object["removed"] {
                                checked["removed", default: 0] += 1
                                if let text = removed as? String, Int(text) != nil {
                                    strings.append("\(spec.name): removed = \"\(text)\"")
                                }
                            }
                        }
                    }
                }
            }
        }
        #expect(strings.isEmpty, "\(strings.prefix(10).joined(separator: "\n"))")
        // Not vacuous: the market's and the community's whole numbers were read, as counts were.
        for name in ["price", "stock", "discountedPrice", "amount", "count", "removed"] {
            #expect(checked[name, default: 0] > 0, "no output had '\(name)': \(checked)")
        }
        #expect(outputs > 100)
    }
}
