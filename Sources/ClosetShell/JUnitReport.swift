import ClosetCore
import Foundation

/// Golden-test results as JUnit XML, the format CI systems read: one `<testcase>` per golden
/// file, a `<failure>` with the diff for each that failed.
struct JUnitReport {
    struct Case {
        var file: String
        var seconds: Double
        /// nil when it passed.
        var failure: (message: String, details: String)?
    }

    var cases: [Case] = []

    func xml(suite: String = "closet golden tests") -> String {
        let failures = cases.filter { $0.failure != nil }.count
        let total = cases.reduce(0) { $0 + $1.seconds }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            "<testsuites name=\"\(Self.escape(suite))\" tests=\"\(cases.count)\" failures=\"\(failures)\" time=\"\(Self.seconds(total))\">\n"
        out +=
            "  <testsuite name=\"\(Self.escape(suite))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\" time=\"\(Self.seconds(total))\">\n"
        for testCase in cases {
            let folder = FilePath.parent(of: testCase.file)
            let name = FilePath.stem(of: testCase.file)
            // An absolute folder would start the class name with a dot.
            var classname = folder.replacingOccurrences(of: "/", with: ".")
            while classname.hasPrefix(".") { classname.removeFirst() }
            out +=
                "    <testcase classname=\"\(Self.escape(classname))\" name=\"\(Self.escape(name))\" file=\"\(Self.escape(testCase.file))\" time=\"\(Self.seconds(testCase.seconds))\""
            if let failure = testCase.failure {
                out += ">\n      <failure message=\"\(Self.escape(failure.message))\" type=\"golden mismatch\">"
                out += Self.escape(failure.details) + "</failure>\n    </testcase>\n"
            } else {
                out += "/>\n"
            }
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    /// XML text: markup characters escaped; characters XML 1.0 forbids (most C0 controls)
    /// shown as U+FFFD so the report always parses.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
