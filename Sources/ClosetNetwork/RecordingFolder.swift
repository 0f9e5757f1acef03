import ClosetCore
import Foundation

/// A folder of recorded exchanges (`--replay`, `--record`, a golden test's `http` folder).
package struct RecordingFolder: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// Every recording, by key; a key recorded twice keeps the first file in name order.
    public func load() throws(NetworkError) -> [String: Recording] {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .recording("no recordings folder '\(path)'")
        }
        let names: [String]
        do {
            names = try manager.contentsOfDirectory(atPath: path).sorted()
        } catch {
            throw .recording("cannot read the recordings folder '\(path)': \(error.localizedDescription)")
        }
        var recordings: [String: Recording] = [:]
        for name in names where name.hasSuffix(".http") {
            let stem = String(name.dropLast(".http".count))
            let file = FilePath.join(path, name)
            guard let data = manager.contents(atPath: file), let head = String(data: data, encoding: .utf8) else {
                throw .recording("cannot read the recording '\(file)'")
            }
            let bodyName = names.first { $0 != name && $0.hasPrefix(stem + ".") && !$0.hasSuffix(".http") }
            let body = bodyName.flatMap { manager.contents(atPath: FilePath.join(path, $0)) }
            let recording = try Recording.parse(head: head, body: body, file: file)
            if recordings[recording.key] == nil { recordings[recording.key] = recording }
        }
        return recordings
    }

    /// The day the recordings were made in, as the folder names it: a `today` file holding
    /// `yyyy-mm-dd` (what `--today` takes); nil when there is none.
    public func day() throws(NetworkError) -> Date? {
        let file = FilePath.join(path, "today")
        guard let data = FileManager.default.contents(atPath: file) else { return nil }
        guard data.count < 64, let text = String(data: data, encoding: .utf8), let day = RecordedDay.parse(text) else {
            throw .recording("'\(file)' is not a day: write it as 2012-01-02")
        }
        return day
    }

    /// Writes one exchange (replacing an earlier recording of the same request).
    public func save(_ recording: Recording) throws(NetworkError) {
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
            let stem = recording.stem
            for old in (try? manager.contentsOfDirectory(atPath: path)) ?? [] where old.hasPrefix(stem + ".") {
                try manager.removeItem(atPath: FilePath.join(path, old))
            }
            let base = FilePath.join(path, stem)
            try Data(recording.headText.utf8).write(to: URL(fileURLWithPath: base + ".http"), options: .atomic)
            if recording.failure == nil, !recording.response.body.isEmpty {
                try recording.response.body.write(
                    to: URL(fileURLWithPath: base + "." + recording.bodyExtension), options: .atomic)
            }
        } catch {
            throw .recording("cannot write a recording into '\(path)': \(error.localizedDescription)")
        }
    }
}

/// `--replay <dir>` and golden tests: every request is answered from the folder, nothing
/// leaves the process.
package final class ReplayTransport: Transport {
    let recordings: [String: Recording]

    public init(folder: RecordingFolder) throws(NetworkError) {
        recordings = try folder.load()
    }

    package var sendsRequests: Bool { false }

    public func send(_ request: HTTPRequest) throws(NetworkError) -> HTTPResponse {
        guard let recording = recordings[Recording.key(for: request)] else {
            throw .noRecording(request.method.rawValue, request.displayURL)
        }
        return try recording.answer(request)
    }
}

/// `--record <dir>` and `closet test --record`: every exchange goes through `inner` and is
/// also written to the folder, secrets removed.
package final class RecordingTransport: Transport {
    let inner: Transport
    let folder: RecordingFolder

    public init(_ inner: Transport, into folder: RecordingFolder) {
        self.inner = inner
        self.folder = folder
    }

    public func send(_ request: HTTPRequest) throws(NetworkError) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try inner.send(request)
        } catch {
            // A failure the network caused is an exchange too: goldens replay it offline.
            if let recording = Recording(request: request, failure: error) { try folder.save(recording) }
            throw error
        }
        try folder.save(Recording(request: request, response: response))
        return response
    }
}
