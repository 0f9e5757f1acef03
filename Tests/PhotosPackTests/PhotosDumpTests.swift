import ClosetLanguage
import Foundation
import TestSupport
import Testing

/// Saved photos travel in `.dump --images`: the dump replays with the network off and dumps
/// again to the same text.
@Suite struct PhotosDumpTests {
    static let recordings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden/photos/http").path

    @Test func aDumpWithPicturesReplaysOfflineToTheSameDump() throws {
        let folder = "pictures"
        let original = Harness(format: .table, network: .replay(folder: Self.recordings))
        for line in ["list photos", "save photo @1 memo=\"첫 사진\"", "save photo @4 memo=\"with \\\"quotes\\\"\""] {
            #expect(original.run(line), "\(line): \(original.host.standardError)")
        }
        let dump = original.output(".dump --images \(folder)")
        #expect(dump.contains("add saved id=\"ph00owkxgpv\""))
        // The recording host keeps written files in memory; the new session reads them there.
        let host = original.host
        #expect(host.binaryFiles.keys.filter { $0.hasPrefix(folder) }.count == 2)

        let restored = Harness(format: .table)  // the network is off
        for (path, bytes) in host.binaryFiles { restored.host.binaryFiles[path] = bytes }
        for line in dump.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(restored.run(String(line)), "\(line): \(restored.host.standardError)")
        }
        #expect(restored.output(".dump --images \(folder)") == dump)
        #expect(restored.output("count saved").contains("2"))
    }
}
