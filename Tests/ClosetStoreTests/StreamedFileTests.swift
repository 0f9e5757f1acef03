import Foundation
import Testing

@testable import ClosetStore

@Suite struct StreamedFileTests {
    /// Block checksums summed as the bytes are appended, with lengths patched in afterwards (in
    /// pieces already written, across block ends, before the blocks' start), are the file's
    /// own, read back whole.
    @Test func blocksSummedAsWrittenAreTheFilesOwn() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<40 {
            let folder = NSTemporaryDirectory() + "closet-streamed-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let start = Int.random(in: 0..<100, using: &generator)
            let size = [64, 100, 4096][round % 3]
            var summed: [UInt32] = []
            var readBack: [UInt32]?
            _ = try StreamedFile.replace(
                folder + "/file", directory: folder, pieceSize: Int.random(in: 1..<700, using: &generator),
                blocks: (start, size)
            ) { (writer, file) throws(POSIXFile.Failure) in
                let length = Int.random(in: 0..<3000, using: &generator)
                var patches: [(Int, UInt64)] = []
                while writer.position < length {
                    if Int.random(in: 0..<20, using: &generator) == 0 {
                        patches.append((writer.position, UInt64.random(in: 0...UInt64.max, using: &generator)))
                        writer.u64(0)
                    } else {
                        writer.u8(UInt8.random(in: 0...255, using: &generator))
                    }
                    writer.drainIfFull()
                }
                for (position, value) in patches { writer.patch(at: position, value) }
                writer.drain()
                let end = max(writer.position, start)
                summed = try file.blockChecksums(start..<end, size: size)
                readBack = POSIXFile.blockChecksums(file.descriptor, start..<end, size: size)
            }
            #expect(summed == readBack)
        }
    }
}
