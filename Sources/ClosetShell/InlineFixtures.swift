import ClosetCore
import Foundation

/// Files a golden test carries after its statements, as Go's txtar does: a line `-- NAME --`
/// starts a file and the lines up to the next such line (or the end) are its text; `-- NAME
/// (base64) --` holds a binary file (a picture) as base64. The runner writes them into the
/// test's scratch folder before it runs, so the test reads them as files beside it and leaves
/// nothing behind.
package enum InlineFixtures {
    package struct Problem: Error, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }

    /// The script without its files, and the files by path relative to the test's folder.
    package static func separating(_ script: String) throws(Problem) -> (
        script: String, files: [(name: String, bytes: [UInt8])]
    ) {
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.firstIndex(where: { header($0) != nil }) else { return (script, []) }
        var files: [(name: String, bytes: [UInt8])] = []
        var index = first
        while index < lines.count {
            guard let (name, binary) = header(lines[index]) else { break }
            try check(name, line: index + 1)
            var end = index + 1
            while end < lines.count, header(lines[end]) == nil { end += 1 }
            // Each line ends with its newline; the script's own final newline is not a line.
            var content = Array(lines[(index + 1)..<end])
            if end == lines.count, content.last == "" { content.removeLast() }
            let body = content.map { $0 + "\n" }.joined()
            if binary {
                let compact = body.filter { !$0.isWhitespace }
                guard let data = Data(base64Encoded: compact) else {
                    throw Problem(message: "line \(index + 1): '\(name)' is marked (base64) but is not base64")
                }
                files.append((name, [UInt8](data)))
            } else {
                files.append((name, Array(body.utf8)))
            }
            index = end
        }
        let kept = lines[..<first].joined(separator: "\n")
        return (kept.hasSuffix("\n") || kept.isEmpty ? kept : kept + "\n", files)
    }

    /// `-- NAME --` or `-- NAME (base64) --`: the name and whether it is base64.
    static func header(_ line: Substring) -> (name: String, binary: Bool)? {
        guard line.hasPrefix("-- "), line.hasSuffix(" --"), line.count > 6 else { return nil }
        var name = line.dropFirst(3).dropLast(3).trimmingCharacters(in: .whitespaces)
        let binary = name.hasSuffix(" (base64)")
        if binary { name = String(name.dropLast(" (base64)".count)).trimmingCharacters(in: .whitespaces) }
        return name.isEmpty ? nil : (name, binary)
    }

    /// A fixture stays inside the test's folder: relative, no `..`.
    static func check(_ name: String, line: Int) throws(Problem) {
        let parts = name.split(separator: "/")
        guard !name.hasPrefix("/"), !name.hasPrefix("~"), !parts.contains(".."), !parts.isEmpty else {
            throw Problem(message: "line \(line): the inline file '\(name)' must be a path inside the test's folder")
        }
    }
}
