/// The golden tests as TAP version 13 (the Test Anything Protocol), beside JUnit: `ok N - file`
/// or `not ok N - file` with the first differing lines as a YAML block, for TAP consumers
/// (prove, tap-junit, many CI dashboards).
extension JUnitReport {
    func tap() -> String {
        var out = "TAP version 13\n1..\(cases.count)\n"
        for (index, testCase) in cases.enumerated() {
            guard let failure = testCase.failure else {
                out += "ok \(index + 1) - \(testCase.file)\n"
                continue
            }
            out += "not ok \(index + 1) - \(testCase.file)\n  ---\n"
            out += "  message: " + Self.yamlString(failure.message) + "\n"
            out += "  details: |\n"
            for line in failure.details.split(separator: "\n", omittingEmptySubsequences: false).prefix(40) {
                out += "    " + line + "\n"
            }
            out += "  ...\n"
        }
        return out
    }

    /// A YAML double-quoted scalar.
    static func yamlString(_ text: String) -> String {
        var out = "\""
        for character in text.unicodeScalars {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(character)
            }
        }
        return out + "\""
    }
}
