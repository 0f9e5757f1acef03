import ClosetCore
import ClosetNetwork
import Foundation

/// `.skip if <condition>`: a line of a golden test, read by the runner before it runs, that
/// skips the test when the condition holds (Go testscript's `[short] skip`, `[exec:tool]`).
/// The test runs without the line (it becomes a comment, so line numbers stay).
///
/// Conditions: `short` (`closet test --short`), `ci` (`CI=true`), `no-helper` (the network helper
/// `closet-http` is not beside the binary), `missing <tool>` (the program is not on `PATH`).
package enum SkipConditions {
    static let prefix = ".skip if "

    package struct Unknown: Error, CustomStringConvertible {
        var line: Int
        var condition: String
        package var description: String {
            "line \(line): '.skip if \(condition)' names no condition; they are short, ci, no-helper and missing <tool>"
        }
    }

    /// The script with its `.skip if` lines made comments, and the first condition that holds.
    package static func read(_ script: String, environment: [String: String], short: Bool) throws(Unknown) -> (
        script: String, skip: String?
    ) {
        var lines = script.components(separatedBy: "\n")
        var skip: String?
        for index in lines.indices where lines[index].hasPrefix(prefix) {
            let condition = lines[index].dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
            lines[index] = "# " + lines[index]
            guard let holds = holds(condition, environment: environment, short: short) else {
                throw Unknown(line: index + 1, condition: condition)
            }
            if holds, skip == nil { skip = condition }
        }
        return (lines.joined(separator: "\n"), skip)
    }

    /// Whether a condition holds; nil for one that is not known.
    static func holds(_ condition: String, environment: [String: String], short: Bool) -> Bool? {
        let words = condition.split(separator: " ").map(String.init)
        switch words.first {
        case "short" where words.count == 1: return short
        case "ci" where words.count == 1:
            return ["true", "1", "yes"].contains(environment["CI"]?.lowercased() ?? "")
        case "no-helper" where words.count == 1:
            return !FileManager.default.isExecutableFile(
                atPath: HelperTransport.defaultHelperPath(environment: environment))
        case "missing" where words.count == 2:
            let path = environment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            return !path.split(separator: ":").contains { folder in
                FileManager.default.isExecutableFile(atPath: FilePath.join(String(folder), words[1]))
            }
        default: return nil
        }
    }
}
