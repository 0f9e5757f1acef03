import ClosetCore
import ClosetNetwork
import ClosetTables
import Foundation

/// `--log <file.jsonl>`: one JSON object a line per exchange, appended: when, the method, the
/// path, the query with every secret's value replaced, the status, the time taken, the faults.
/// Headers and bodies are never written (a password travels in a body, a key in a header).
package final class ServeLog: @unchecked Sendable {
    let handle: FileHandle
    /// Workers write as they finish: one whole line at a time.
    private let lock = NSLock()

    init(path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw StoreError("cannot create the log '\(path)'")
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw StoreError("cannot write the log '\(path)'")
        }
        handle.seekToEndOfFile()
        self.handle = handle
    }

    func write(_ request: ServedRequest, status: Int, milliseconds: Double, faults: [String], note: String? = nil) {
        var query: [String: String] = [:]
        for (name, value) in request.query {
            query[name] = ServedRequest.isSecret(queryName: name) ? "(redacted)" : value
        }
        var object: [String: Any] = [
            "time": ISO8601DateFormatter().string(from: Date()), "method": request.method, "path": request.path,
            "status": status, "ms": (milliseconds * 10).rounded() / 10,
        ]
        if !query.isEmpty { object["query"] = query }
        if !faults.isEmpty { object["faults"] = faults }
        if let note { object["note"] = note }
        guard
            var line = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        line.append(10)
        lock.lock()
        handle.write(line)
        lock.unlock()
    }
}
