import ClosetCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written as it is made (`ByteSink`): a compaction streams the new snapshot into it a
/// few megabytes at a time instead of holding it whole in memory (three snapshots at once made
/// `closet serve` at 100,000 products peak near 200 MB). Failures are kept and thrown when the
/// writing is done.
final class StreamedFile: ByteSink {
    let descriptor: Int32
    let path: String
    let pieceSize: Int
    private(set) var failure: POSIXFile.Failure?

    private init(descriptor: Int32, path: String, pieceSize: Int) {
        self.descriptor = descriptor
        self.path = path
        self.pieceSize = pieceSize
    }

    func append(_ bytes: [UInt8]) {
        guard failure == nil else { return }
        do { try POSIXFile.writeAll(descriptor, bytes, path: path) } catch { failure = error }
    }

    func overwrite(at position: Int, with bytes: [UInt8]) {
        guard failure == nil else { return }
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes {
                pwrite(descriptor, $0.pointer(at: done), bytes.count - done, off_t(position + done))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                failure = POSIXFile.failure("cannot write", path)
                return
            }
            done += count
        }
    }

    func read(at position: Int, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let read = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.pointer(at: done), count - done, off_t(position + done))
            }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else {
                // What was made from it would be wrong: the whole write fails.
                if failure == nil { failure = POSIXFile.failure("cannot read back", path) }
                return []
            }
            done += read
        }
        return bytes
    }

    /// CRC-32C of each `size`-byte block of `range`, read back from the file.
    func blockChecksums(_ range: Range<Int>, size: Int) throws(POSIXFile.Failure) -> [UInt32] {
        if let failure { throw failure }
        guard let checksums = POSIXFile.blockChecksums(descriptor, range, size: size) else {
            throw POSIXFile.failure("cannot read back", path)
        }
        return checksums
    }

    /// Writes `path` crash-safely, as `POSIXFile.replace` does (a temporary file synced, renamed
    /// over it, the folder synced), with the bytes `write` streams into the writer it is given.
    /// Returns what `write` returned and the file's length.
    static func replace<Result>(
        _ path: String, directory: String, pieceSize: Int = 4 << 20,
        write: (inout ByteWriter, StreamedFile) throws(POSIXFile.Failure) -> Result
    ) throws(POSIXFile.Failure) -> (result: Result, length: Int) {
        let temporary = path + ".tmp"
        let file = StreamedFile(
            descriptor: try POSIXFile.open(temporary, flags: O_RDWR | O_CREAT | O_TRUNC), path: temporary,
            pieceSize: pieceSize)
        let result: Result
        var writer = ByteWriter(sink: file)
        do throws(POSIXFile.Failure) {
            result = try write(&writer, file)
            writer.drain()
            if let failure = file.failure { throw failure }
            try POSIXFile.sync(file.descriptor, path: temporary)
        } catch {
            close(file.descriptor)
            unlink(temporary)
            throw error
        }
        close(file.descriptor)
        guard rename(temporary, path) == 0 else { throw POSIXFile.failure("cannot rename", temporary) }
        try POSIXFile.syncDirectory(directory)
        return (result, writer.position)
    }
}
