import ClosetCore
import ClosetLanguage
import Foundation
import TestSupport
import Testing
import WardrobePack

@testable import ClosetShell

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Issue 6's laws: dump → replay → dump is byte-identical; an import with one bad row among
/// a thousand imports nothing and names the line; the JUnit report is well-formed XML.
@Suite struct DumpRoundTripTests {
    /// Runs a script in a fresh deterministic session whose files live in `folder`.
    func session(running script: String, in folder: String) -> (Session, TranscriptHost) {
        let host = TranscriptHost(baseDirectory: folder)
        var configuration = SessionFactory.Configuration.golden
        configuration.settings.echo = false
        let session = try! SessionFactory.makeSession(store: MemoryWardrobe(), host: host, configuration)
        host.session = session
        _ = session.runScript(script, name: "script")
        return (session, host)
    }

    func dump(_ session: Session, images: String? = nil) throws -> String {
        try Dump.script(of: session, imageFolder: images) { path, bytes in
            try ScriptFile.write(bytes, to: path, relativeTo: nil, creatingFolder: true)
        }
    }

    @Test(arguments: ["mock-data.closet", "wardrobe.closet", "tour.closet"])
    func examplesRoundTrip(_ example: String) throws {
        let examples = repositoryRoot + "/Examples"
        let original = try String(contentsOfFile: examples + "/" + example, encoding: .utf8)
        let (first, _) = session(running: original, in: examples)
        #expect(first.wardrobe.clothesCount > 0)
        let dumped = try dump(first)
        let (second, host) = session(running: dumped, in: examples)
        #expect(second.tally.failures == 0, "\(host.text)")
        #expect(try dump(second) == dumped)
        #expect(second.wardrobe.fetchAllClothes() == first.wardrobe.fetchAllClothes())
        #expect(try second.wardrobe.fetchStyles() == first.wardrobe.fetchStyles())
    }

    /// The market's products, with their pictures and password hashes, replay exactly; the
    /// same password still works, and no password is in the dump.
    @Test func theMarketRoundTripsWithPicturesAndPasswordHashes() throws {
        let examples = repositoryRoot + "/Examples"
        let folder = NSTemporaryDirectory() + "closet-market-dump-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let original = try String(contentsOfFile: examples + "/market.closet", encoding: .utf8)
        let (first, _) = session(running: original, in: examples)
        let dumped = try dump(first, images: folder)
        #expect(dumped.contains("hash=\"pbkdf2-sha256$10000$") && !dumped.contains("password="))
        let (second, host) = session(running: dumped, in: examples)
        #expect(second.tally.failures == 0, "\(host.text)")
        #expect(try dump(second, images: folder) == dumped)
        #expect(second.executeAndCommit(StatementSource("edit product 1 password=1234 stock=3")))
        #expect(!second.executeAndCommit(StatementSource("edit product 1 password=4321 stock=4")))
    }

    @Test func picturesRoundTripThroughTheImagesFolder() throws {
        let fixtures = repositoryRoot + "/Tests/Golden/images/fixtures"
        let folder = NSTemporaryDirectory() + "closet-dump-\(UUID().uuidString)"
        let (first, _) = session(
            running:
                "add clothes category=top season=fall image=\(fixtures)/knit.png\nadd clothes category=shoes season=fall image=\(fixtures)/boots.jpg\n",
            in: folder)
        let dumped = try dump(first, images: folder + "/pictures")
        let (second, host) = session(running: dumped, in: folder)
        #expect(second.tally.failures == 0, "\(host.text)")
        #expect(try dump(second, images: folder + "/pictures") == dumped)
        let picture = try #require(second.wardrobe.fetchAllClothes().first?.image)
        #expect(
            second.wardrobe.loadImage(picture, for: second.wardrobe.fetchAllClothes()[0].id)
                == SampleImagesOnDisk.bytes(fixtures + "/knit.png"))
    }

    @Test func quotingReadsBackToTheSameText() throws {
        for text in [
            "plain", "say \"hi\"", "back\\slash", "tab\there", "line\nbreak", "# not a comment", "니트 🧥", "a,b", "",
        ] {
            let quoted = DumpWriter.quote(text)
            guard case .command(let call)? = try Parser.parse("x y=\(quoted)")?.kind else {
                Issue.record("does not parse: \(quoted)")
                continue
            }
            #expect(call.arguments[0].values.map(\.text) == [text])
        }
    }
}

enum SampleImagesOnDisk {
    static func bytes(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { [UInt8]($0) } }
}

@Suite struct ImportTests {
    @Test func oneBadRowAmongAThousandImportsNothingAndNamesTheLine() throws {
        let harness = Harness()
        var lines = ["category,season,description,createdAt"]
        for index in 0..<1000 {
            lines.append(
                index == 637 ? "top,fal,row \(index),2024-01-01" : "top,fall,\"row \(index), knit\",2024-01-01")
        }
        harness.host.binaryFiles["thousand.csv"] = Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
        #expect(!harness.run("import clothes from=thousand.csv"))
        #expect(harness.store.clothesCount == 0)
        // The header is line 1, so row 637 (0-based) is line 639.
        #expect(harness.host.standardError.hasPrefix("thousand.csv:639: unknown season 'fal'; did you mean 'fall'?\n"))
        #expect(harness.host.standardError.contains("error: 1 bad row in 'thousand.csv'; nothing was imported"))
    }

    /// A bad row's message quotes the file's value: its terminal controls are shown escaped,
    /// never sent to the terminal (issue 44).
    @Test func aBadRowsControlsAreShownNotSent() throws {
        let harness = Harness()
        let hostile = "\u{1B}]0;owned\u{07}\u{1B}[2J"
        harness.host.binaryFiles["bad.csv"] = Array("category,season,description\ntop,\(hostile),x\n".utf8)
        #expect(!harness.run("import clothes from=bad.csv"))
        #expect(harness.store.clothesCount == 0)
        let said = harness.host.standardError
        #expect(!said.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, "\(said)")
        #expect(said.contains("bad.csv:2: unknown season '\\e]0;owned\\u{7}\\e[2J'"), "\(said)")
    }

    /// Issue 41: an import is the entity's own `add`, row by row. A row `add` would refuse is
    /// refused with `add`'s reason, named by the file's field; a row it takes is stored as the
    /// statement stores it.
    @Test func anImportRefusesWhatAddRefusesForTheSameReason() throws {
        let harness = Harness()
        harness.host.binaryFiles["rows.csv"] = Array(
            "id,category,season,description,createdAt\n,top,fall,ok,2024-01-01\n,top,fall,,tomorrow\nnot-an-id,top,fall,,\n"
                .utf8)
        #expect(!harness.run("import clothes from=rows.csv"))
        let said = harness.host.standardError
        for (line, statement) in [
            (3, "add clothes category=top season=fall created=tomorrow"),
            (4, "add clothes category=top season=fall id=not-an-id"),
        ] {
            let alone = Harness()
            #expect(!alone.run(statement))
            // The statement's message (after `error: `), as the row's reason.
            let reason =
                alone.host.standardError.split(separator: "\n").compactMap { line in
                    line.range(of: "error: ").map { String(line[$0.upperBound...]) }
                }.first ?? "?"
            #expect(said.contains("rows.csv:\(line): ") && said.contains(reason), "\(said) vs \(reason)")
        }
        #expect(said.contains("rows.csv:3: createdAt: 'tomorrow' is not a date"), "\(said)")
        #expect(harness.store.clothesCount == 0)
        harness.host.binaryFiles["rows.csv"] = Array("category,season,description\n상의,가을,\"a, b\"\n".utf8)
        #expect(harness.run("import clothes from=rows.csv"))
        #expect(harness.output("count clothes category=top season=fall") == "{\"count\":1}\n")
        #expect(harness.output("list clothes").contains("\"description\":\"a, b\""))
    }

    @Test func aThousandGoodRowsImportInOneStatement() throws {
        let harness = Harness()
        let rows = (0..<1000).map { "{\"category\":\"상의\",\"season\":\"가을\",\"description\":\"row \($0)\"}" }
        harness.host.binaryFiles["thousand.json"] = Array(("[\n" + rows.joined(separator: ",\n") + "\n]\n").utf8)
        #expect(harness.run("import clothes from=thousand.json"))
        #expect(harness.store.clothesCount == 1000)
        #expect(harness.output("count clothes category=top season=fall") == "{\"count\":1000}\n")
    }

    @Test func exportThenImportIntoAnotherStoreKeepsEverything() throws {
        let source = Harness()
        source.run(
            "add clothes category=top season=fall description=\"navy, \\\"knit\\\"\" created=2024-03-01T10:00:00Z")
        source.run("add clothes category=하의 season=겨울 description=\"기모\nline\"")
        for format in ["json", "csv"] {
            #expect(source.run("export clothes to=out.\(format)"))
            let target = Harness()
            target.host.binaryFiles["out.\(format)"] = source.host.binaryFiles["out.\(format)"]
            #expect(target.run("import clothes from=out.\(format)"), "\(target.host.standardError)")
            #expect(
                target.store.fetchAllClothes().sorted { $0.id.uuidString < $1.id.uuidString }
                    == source.store.fetchAllClothes().sorted { $0.id.uuidString < $1.id.uuidString }, "\(format)")
        }
    }

    @Test func jsonReaderNamesLinesAndRefusesDeepNesting() throws {
        let rows = try JSONReader.rows("[\n{\"a\":1},\n\n{\"b\":\"\\u00e9\\ud83e\\udde5\"}\n]")
        #expect(rows.map(\.line) == [2, 4])
        #expect(rows[1].value == .object([("b", .string("é🧥"))]))
        let deep = "[" + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "]"
        #expect(throws: JSONReader.Failure.self) { try JSONReader.rows(deep) }
    }

    @Test func csvReaderHandlesQuotesAndLineBreaks() throws {
        let records = try CSVReader.records("a,b\r\n\"x, \"\"y\"\"\",\"two\nlines\"\r\nlast,\n")
        #expect(records.map(\.line) == [1, 2, 4])
        #expect(records[1].fields == ["x, \"y\"", "two\nlines"])
        #expect(records[2].fields == ["last", ""])
    }

    /// Random records written as a spreadsheet writes them (a field quoted when it holds a
    /// comma, quote, CR or LF, its quotes doubled; now and then quoted anyway; LF or CRLF
    /// ends; a BOM) read back as they were, each on the line it starts on; and the bad files
    /// fail on their line.
    @Test func csvReaderReadsBackWhatASpreadsheetWrites() throws {
        var random = SeededRandom(seed: 47)
        let pieces = ["a", "knit", ",", "\"", "\"\"", "\n", "\r", "\r\n", " ", "청바지", "🧥", "x\"y"]
        for _ in 0..<300 {
            let width = Int.random(in: 1...4, using: &random)
            var records: [[String]] = []
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                records.append(
                    (0..<width).map { _ in
                        (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                            .joined()
                    })
            }
            // A record of one empty field is a blank line, which the reader skips.
            records = records.filter { $0 != [""] }
            let end = Bool.random(using: &random) ? "\n" : "\r\n"
            var text = Bool.random(using: &random) ? "\u{FEFF}" : ""
            var lines: [Int] = []
            var line = 1
            for record in records {
                lines.append(line)
                let written = record.map { field in
                    // By scalar: CR and LF together are one character.
                    let quote =
                        field.unicodeScalars.contains { ",\"\r\n".unicodeScalars.contains($0) }
                        || Int.random(in: 0..<5, using: &random) == 0
                    return quote ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
                }.joined(separator: ",")
                text += written + end
                line += written.utf8.filter { $0 == 0x0A }.count + 1
            }
            if Bool.random(using: &random), text.hasSuffix(end) { text.removeLast() }
            let read = try CSVReader.records(text)
            #expect(read.map(\.fields) == records, "\(text.debugDescription)")
            #expect(read.map(\.line) == lines, "\(text.debugDescription)")
        }
        for (bad, line) in [("a,b\nc\"d,e\n", 2), ("a\n\"b\"c\n", 2), ("a\n\n\"open,\nstill\n", 3), ("\"x\"\r,y", 1)] {
            #expect(throws: CSVReader.Failure.self) { try CSVReader.records(bad) }
            do {
                _ = try CSVReader.records(bad)
            } catch {
                #expect(error.line == line, "\(bad.debugDescription)")
            }
        }
    }
}

@Suite struct JUnitTests {
    @Test func theReportIsWellFormedXMLWithOneCasePerFileAndTheDiff() throws {
        let folder = NSTemporaryDirectory() + "closet-junit-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "count clothes\n".write(toFile: folder + "/pass.closet", atomically: true, encoding: .utf8)
        try "closet> count clothes\ncount\n-----\n    0\n".write(
            toFile: folder + "/pass.expected", atomically: true, encoding: .utf8)
        try "add clothes category=top season=fall description=\"<&>\"\n".write(
            toFile: folder + "/fail.closet", atomically: true, encoding: .utf8)
        try "nothing like it \u{01}\n".write(toFile: folder + "/fail.expected", atomically: true, encoding: .utf8)
        let report = folder + "/report.xml"
        var console = ""
        let status = GoldenRunner(environment: [:]) { console += $0 }.run(paths: [folder], update: false, junit: report)
        #expect(status == .failure)
        #expect(console.hasSuffix("1 passed, 1 failed\n"))

        let data = try Data(contentsOf: URL(fileURLWithPath: report))
        let delegate = JUnitCollector()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(delegate.testcases == ["fail", "pass"])
        #expect(delegate.failures == 1)
        #expect(delegate.failureText.contains("+closet> add clothes category=top season=fall description=\"<&>\""))
        #expect(delegate.suiteAttributes["tests"] == "2")
        #expect(delegate.suiteAttributes["failures"] == "1")

        // Issue 28, item 3: TAP beside JUnit, the same cases.
        let tap = folder + "/report.tap"
        var selection = GoldenRunner.Selection()
        selection.tap = tap
        _ = GoldenRunner(environment: [:]) { _ in }.run(paths: [folder], update: false, selection: selection)
        let text = try String(contentsOfFile: tap, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(2)) == ["TAP version 13", "1..2"])
        #expect(lines.contains("not ok 1 - \(folder)/fail.closet") && lines.contains("ok 2 - \(folder)/pass.closet"))
        #expect(lines.contains { $0.hasPrefix("  message: \"FAIL ") } && lines.contains("  ..."))
    }
}

final class JUnitCollector: NSObject, XMLParserDelegate {
    var testcases: [String] = []
    var failures = 0
    var failureText = ""
    var suiteAttributes: [String: String] = [:]
    private var inFailure = false

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch name {
        case "testsuite": suiteAttributes = attributes
        case "testcase": testcases.append(attributes["name"] ?? "")
        case "failure":
            failures += 1
            inFailure = true
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inFailure { failureText += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "failure" { inFailure = false }
    }
}
