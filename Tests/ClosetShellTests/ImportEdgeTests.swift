import Foundation
import TestSupport
import Testing

/// What spreadsheets and hand-written files bring to `import`: a byte-order mark, repeated
/// columns or keys, an empty file, and rows written on one line.
@Suite struct ImportEdgeTests {
    func importing(_ name: String, _ text: String) -> (ok: Bool, error: String, count: Int) {
        let harness = Harness()
        harness.host.binaryFiles[name] = Array(text.utf8)
        let ok = harness.run("import clothes from=\(name)")
        return (ok, harness.host.standardError, harness.store.clothesCount)
    }

    @Test func aJSONFileWithAByteOrderMarkImports() {
        let result = importing("bom.json", "\u{FEFF}[{\"category\":\"top\",\"season\":\"fall\"}]")
        #expect(result.ok && result.count == 1, "\(result.error)")
    }

    @Test func aRepeatedColumnOrKeyIsRefused() {
        let csv = importing("twice.csv", "category,season,category\r\ntop,fall,bottom\r\n")
        #expect(!csv.ok && csv.error.contains("twice.csv:1: the column 'category' appears twice"), "\(csv.error)")
        let json = importing("twice.json", "[{\"category\":\"top\",\"season\":\"fall\",\"category\":\"bottom\"}]")
        #expect(!json.ok && json.error.contains("the field \"category\" appears twice in one object"), "\(json.error)")
        #expect(csv.count == 0 && json.count == 0)
    }

    @Test func anEmptyCSVOrAnEmptyArrayImportsNothing() {
        for (name, text) in [("empty.csv", ""), ("none.json", "[]"), ("none-blank.json", " [ ]\n")] {
            let result = importing(name, text)
            #expect(result.ok && result.count == 0, "\(name): \(result.error)")
        }
    }

    /// An empty JSON file is not JSON: a truncated export must not import as nothing (issue 44).
    @Test func anEmptyJSONFileIsAnErrorNamingIt() {
        for (name, text) in [("empty.json", ""), ("blank.json", " \n\t\n"), ("mark.json", "\u{FEFF}")] {
            let result = importing(name, text)
            #expect(!result.ok && result.count == 0, "\(name)")
            #expect(
                result.error.contains(name) && result.error.contains("the file is empty"), "\(name): \(result.error)")
        }
    }

    @Test func rowsOnOneLineAreNamedByTheirNumber() {
        let result = importing(
            "line.json",
            "[{\"category\":\"top\",\"season\":\"fall\"},{\"category\":\"hat\",\"season\":\"fall\"},{\"category\":\"top\",\"season\":\"fal\"}]"
        )
        #expect(!result.ok)
        #expect(result.error.contains("line.json:1: row 2: unknown category 'hat'"), "\(result.error)")
        #expect(result.error.contains("line.json:1: row 3: unknown season 'fal'"), "\(result.error)")
    }
}
