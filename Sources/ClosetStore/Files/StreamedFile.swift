import CStoreSupport
import ClosetCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written as it is made (`ByteSink`): a compaction streams the new snapshot into it a
/// megabyte at a time instead of holding it whole in memory (three snapshots at once made
/// `closet serve` at 100,000 products peak near 200 MB). Failures are kept and thrown when the
/// writing is done.
final class StreamedFile: ByteSink {
    let descriptor: Int32
    let path: String
    let pieceSize: Int
    /// A writer hands its bytes over a megabyte at a time: its buffer (which grows to twice a
    /// piece before it is drained) is part of a big commit's peak, and a smaller piece costs
    /// only more `write` calls of the same bytes.
    static let defaultPieceSize = 1 << 20
    private(set) var failure: POSIXFile.Failure?
    /// The blocks summed as they are written: a snapshot's body, from its header's end.
    private var blocks: Blocks?

    /// CRC-32C of each block of the file from `start` on, made from the bytes as they are
    /// appended (reading 12 MB back from the file to sum them was a tenth of a compaction's
    /// write); a block an overwrite touches afterwards (a length patched in) is read back alone.
    private struct Blocks {
        let start: Int
        let size: Int
        var sums: [UInt32] = []
        var running: UInt32 = 0
        var inBlock = 0
        var touched: Set<Int> = []
    }

    /// Bytes appended so far: the position of the next.
    private var appended = 0
    /// Written to the disk as they come, this many bytes at a time (0: left to the final sync).
    private let writeBehind: Int
    /// How far the bytes are on the disk.
    private var behind = 0

    private init(
        descriptor: Int32, path: String, pieceSize: Int, blocks: (start: Int, size: Int)?, writeBehind: Int = 0
    ) {
        self.descriptor = descriptor
        self.path = path
        self.pieceSize = pieceSize
        self.writeBehind = writeBehind
        self.blocks = blocks.map { Blocks(start: $0.start, size: $0.size) }
    }

    func append(_ bytes: [UInt8]) {
        guard failure == nil else { return }
        // 64 KB at a time, each summed and then written while it is in the cache (summing a
        // writer's 4 MB piece after writing it read it from memory again).
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, failure == nil {
                let piece = UnsafeRawBufferPointer(rebasing: raw[offset..<min(raw.count, offset + (64 << 10))])
                if blocks != nil { sum(piece) }
                do throws(POSIXFile.Failure) {
                    try POSIXFile.writeAll(descriptor, piece, path: path)
                } catch { failure = error }
                appended += piece.count
                offset += piece.count
                if writeBehind > 0, appended - behind >= writeBehind {
                    _ = closet_write_behind(descriptor, Int64(behind), Int64(appended - behind))
                    behind = appended
                }
            }
        }
    }

    /// Adds `raw`, the bytes appended at `appended`, to the blocks' sums.
    private func sum(_ raw: UnsafeRawBufferPointer) {
        // Taken out while changed, so its sums are appended to in place, not copied per piece.
        guard var blocks else { return }
        self.blocks = nil
        var offset = max(0, blocks.start - appended)
        while offset < raw.count {
            let piece = min(raw.count - offset, blocks.size - blocks.inBlock)
            blocks.running = StoreChecksum.crc32c(
                UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + piece)]), continuing: blocks.running)
            offset += piece
            blocks.inBlock += piece
            if blocks.inBlock == blocks.size {
                blocks.sums.append(blocks.running)
                blocks.running = 0
                blocks.inBlock = 0
            }
        }
        self.blocks = blocks
    }

    func overwrite(at position: Int, with bytes: [UInt8]) {
        guard failure == nil else { return }
        if var blocks, position + bytes.count > blocks.start, !bytes.isEmpty {
            self.blocks = nil
            let first = (max(position, blocks.start) - blocks.start) / blocks.size
            let last = (position + bytes.count - 1 - blocks.start) / blocks.size
            for index in first...last { blocks.touched.insert(index) }
            self.blocks = blocks
        }
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

    /// CRC-32C of each `size`-byte block of `range`: summed as the blocks were appended when
    /// `range` is what was summed (from its start to everything appended), else read back.
    func blockChecksums(_ range: Range<Int>, size: Int) throws(POSIXFile.Failure) -> [UInt32] {
        if let failure { throw failure }
        if let blocks, blocks.start == range.lowerBound, blocks.size == size, appended == range.upperBound {
            var checksums = blocks.sums
            if blocks.inBlock > 0 { checksums.append(blocks.running) }
            for index in blocks.touched where index < checksums.count {
                let start = range.lowerBound + index * size
                guard
                    let sum = POSIXFile.blockChecksums(
                        descriptor, start..<min(range.upperBound, start + size), size: size)?.first
                else { throw POSIXFile.failure("cannot read back", path) }
                checksums[index] = sum
            }
            return checksums
        }
        guard let checksums = POSIXFile.blockChecksums(descriptor, range, size: size) else {
            throw POSIXFile.failure("cannot read back", path)
        }
        return checksums
    }

    /// Writes `path` crash-safely, as `POSIXFile.replace` does (a temporary file synced, renamed
    /// over it, the folder synced), with the bytes `write` streams into the writer it is given.
    /// Returns what `write` returned and the file's length.
    /// `blocks`: where the blocks `blockChecksums` will be asked for start, and their size.
    static func replace<Result>(
        _ path: String, directory: String, pieceSize: Int = StreamedFile.defaultPieceSize,
        blocks: (start: Int, size: Int)? = nil,
        write: (inout ByteWriter, StreamedFile) throws(POSIXFile.Failure) -> Result
    ) throws(POSIXFile.Failure) -> (result: Result, length: Int) {
        let temporary = path + ".tmp"
        let descriptor = try POSIXFile.open(temporary, flags: O_RDWR | O_CREAT | O_TRUNC)
        let written: (result: Result, length: Int)
        do throws(POSIXFile.Failure) {
            written = try self.write(
                into: descriptor, path: temporary, pieceSize: pieceSize, blocks: blocks, write: write)
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else { throw POSIXFile.failure("cannot rename", temporary) }
        try POSIXFile.syncDirectory(directory)
        return written
    }

    /// Streams the bytes `write` makes into the open, empty file `descriptor` (named `path` in
    /// messages) and syncs it; the caller closes it. Returns what `write` returned and the length.
    /// `writeBehind`: bytes written to the disk as they come, that many at a time (0: all at the
    /// final sync).
    static func write<Result>(
        into descriptor: Int32, path: String, pieceSize: Int = StreamedFile.defaultPieceSize,
        blocks: (start: Int, size: Int)? = nil,
        writeBehind: Int = 0, write: (inout ByteWriter, StreamedFile) throws(POSIXFile.Failure) -> Result
    ) throws(POSIXFile.Failure) -> (result: Result, length: Int) {
        let file = StreamedFile(
            descriptor: descriptor, path: path, pieceSize: pieceSize, blocks: blocks, writeBehind: writeBehind)
        var writer = ByteWriter(sink: file)
        let result = try write(&writer, file)
        writer.drain()
        if let failure = file.failure { throw failure }
        try POSIXFile.sync(descriptor, path: path)
        return (result, writer.position)
    }
}
