import ClosetCore
import ClosetLanguage
import ClosetShell
import Foundation
import TestSupport
import Testing

/// Issue 40, item 2: every whole number a user gives is checked against its range before any
/// arithmetic. The sweep goes through every `<n>` and `<size>` key of every command of every
/// pack (and the engine's), with a store holding one of each entity so commands that take a
/// reference reach their keys.
@Suite struct IntegerSweepTests {
    static let sweep = [
        "-9223372036854775808", "-1", "0", "2147483648", "9007199254740993", "4611686018427387904",
        "9223372036854775807", "1e9", "0x10", "007", String(repeating: "9", count: 70),
    ]
    /// Too large for any key: each must be refused by the range rule, not read.
    static let tooLarge: Set<String> = [
        "9007199254740993", "4611686018427387904", "9223372036854775807", String(repeating: "9", count: 70),
    ]
    static let picture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden/images/fixtures/cap.png").path

    /// One of each entity the packs store, so `1`, `@1` and the like name something.
    static func seeded() -> Harness {
        let harness = Harness(format: .table)
        harness.host.binaryFiles["cap.png"] = Array(FileManager.default.contents(atPath: picture) ?? Data())
        for line in [
            "add clothes category=top season=fall description=knit",
            "add product title=t price=100 currency=KRW stock=1 description=d image=cap.png password=1234",
            "add story title=t content=c",
            "list clothes", "list products", "list stories",
        ] {
            #expect(harness.run(line), "\(line): \(harness.host.standardError)")
        }
        return harness
    }

    @Test func everyWholeNumberKeyIsCheckedBeforeAnyArithmetic() {
        let harness = Self.seeded()
        let registry = InstalledPacks.registry
        var swept: [String] = []
        for spec in registry.commands {
            let numeric = spec.keys.filter {
                switch $0.kind {
                case .count, .size: true
                default: false
                }
            }
            guard !numeric.isEmpty, !spec.path.contains("remove") else { continue }
            // The parameter words that let the statement reach its keys (none, an id, a row).
            let candidates: [[String]] = spec.parameters.isEmpty ? [[]] : [["1"], ["@1"], ["1", "1"]]
            for key in numeric {
                guard
                    let words = candidates.first(where: { words in
                        let error = harness.error((spec.path + words + ["\(key.name)=x"]).joined(separator: " "))
                        return error.contains("'\(key.name)' takes a whole number")
                            || error.contains("'x' is not a size")
                    })
                else {
                    Issue.record("\(spec.name) \(key.name): no parameter reaches the key")
                    continue
                }
                for value in Self.sweep {
                    let line = (spec.path + words + ["\(key.name)=\(value)"]).joined(separator: " ")
                    let error = harness.error(line)
                    if key.kind == .size {
                        if Self.tooLarge.contains(value) || value.hasPrefix("-") || value.contains("x") {
                            #expect(error.hasPrefix("error: '\(value)' is not a size"), "\(line): \(error)")
                        }
                    } else if Self.tooLarge.contains(value) {
                        #expect(
                            error.hasPrefix(
                                "error: '\(key.name)' takes a whole number from 0 to 9007199254740991, not '"),
                            "\(line): \(error)")
                    } else if value.hasPrefix("-") || value == "1e9" || value == "0x10" {
                        #expect(error.hasPrefix("error: '\(key.name)' takes a whole number ≥ 0"), "\(line): \(error)")
                    }
                    // Whatever it says is one line of error and the statement's own lines (the
                    // caret), never a trap (which would end this process).
                    #expect(error.split(separator: "\n").count <= 3, "\(line): \(error)")
                }
                swept.append("\(spec.name) \(key.name)")
            }
        }
        for expected in [
            "list products page", "add product price", "add story id", "list clothes limit", "cache limit bytes",
        ] {
            #expect(swept.contains(expected), "\(expected) in \(swept)")
        }
    }

    @Test func pagesPastEveryProductAreEmptyNotATrap() {
        let harness = Self.seeded()
        for page in ["2", "9007199254740991"] {
            let output = harness.output("list products page=\(page)")
            #expect(output.hasSuffix("(0 rows)\n") && harness.host.standardError.isEmpty, "page \(page): \(output)")
        }
        // The page that used to overflow `(page - 1) * 20`: past the range, refused by the rule.
        #expect(harness.error("list products page=461168601842738792").hasPrefix("error: 'page' takes a whole number"))
    }

    @Test func theOneRuleReadsDigitsOnly() {
        #expect(WholeNumber.value("007") == 7)
        #expect(WholeNumber.value("9007199254740991") == 9_007_199_254_740_991)
        #expect(WholeNumber.parse("9007199254740992") == .failure(.tooLarge))
        #expect(WholeNumber.parse(String(repeating: "9", count: 70)) == .failure(.tooLarge))
        #expect(WholeNumber.parse(String(repeating: "9", count: 70) + "x") == .failure(.notANumber))
        for text in ["", "-1", "+1", "1e9", "0x10", " 1", "1 ", "١"] {
            #expect(WholeNumber.parse(text) == .failure(.notANumber), "\(text)")
        }
    }
}
