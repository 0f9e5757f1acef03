import ClosetCore

/// Bytes appended in order and read back later, held in a scratch file (`ScratchFile`) a piece
/// at a time: the columns and sorted runs of a section's index made outside memory
/// (`ScratchIndex`, `ScratchSort`). Without a file, or once the file refuses a write (a full
/// disk), they are held in memory: what was written is read back and kept with the rest, so
/// nothing appended is lost and the caller never fails.
@usableFromInline final class ScratchBytes {
    /// How many bytes are gathered before they go to the file, at most.
    @usableFromInline static let pieceSize = 1 << 20

    @usableFromInline let pieceSize: Int
    private var file: ScratchFile?
    /// Bytes not in the file: the last piece, or all of them once there is no file.
    @usableFromInline var held: [UInt8] = []
    /// How many bytes are in the file (before `held`).
    private var written = 0

    /// `pieceSize` smaller than the usual for small sorts (and tests).
    @usableFromInline init(file: ScratchFile?, pieceSize: Int = ScratchBytes.pieceSize) {
        self.file = file
        self.pieceSize = max(1, min(pieceSize, Self.pieceSize))
        if file != nil { held.reserveCapacity(self.pieceSize) }
    }

    /// Every byte appended.
    @usableFromInline var count: Int { written + held.count }

    /// Drops the bytes past `count` (an undone row's): later ones are written over them.
    @usableFromInline func truncate(to count: Int) {
        guard count < self.count else { return }
        if count >= written {
            held.removeLast(self.count - count)
        } else {
            held.removeAll(keepingCapacity: true)
            written = count
        }
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        held.append(contentsOf: bytes)
        if held.count >= pieceSize { flush() }
    }

    @inlinable func append<T: FixedWidthInteger>(littleEndian value: T) {
        withUnsafeBytes(of: value.littleEndian) { held.append(contentsOf: $0) }
        if held.count >= pieceSize { flush() }
    }

    /// Moves what is held to the file; on a refused write, keeps everything in memory from then on.
    @usableFromInline func flush() {
        guard let file, !held.isEmpty else { return }
        if held.withUnsafeBytes({ file.write($0, at: written) }) {
            written += held.count
            held.removeAll(keepingCapacity: true)
            return
        }
        var all = [UInt8](repeating: 0, count: written)
        all.withUnsafeMutableBytes { readFromFile(file, into: $0, at: 0) }
        all += held
        held = all
        written = 0
        self.file = nil
    }

    /// Fills `buffer` with the bytes from `offset` (all within `count`).
    @usableFromInline func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) {
        var filled = 0
        if offset < written, let file {
            filled = min(buffer.count, written - offset)
            readFromFile(file, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<filled]), at: offset)
        }
        guard filled < buffer.count else { return }
        let from = offset + filled - written
        held.withUnsafeBytes { held in
            UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: held[from..<(from + buffer.count - filled)]))
        }
    }

    /// Appends every byte, in order, to `writer`, a piece at a time.
    func copy(into writer: inout ByteWriter) {
        var offset = 0
        while offset < count {
            let length = min(Self.pieceSize, count - offset)
            let start = writer.bytes.count
            writer.bytes.append(contentsOf: repeatElement(0, count: length))
            writer.bytes.withUnsafeMutableBytes { bytes in
                read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[start..<(start + length)]), at: offset)
            }
            writer.drainIfFull()
            offset += length
        }
    }

    /// A scratch file that cannot give back what it took is damage, as an unreadable row is.
    private func readFromFile(_ file: ScratchFile, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) {
        guard file.read(into: buffer, at: offset) else {
            UnreadableRow.found("bytes held in a scratch file while a snapshot was written could not be read back")
        }
    }
}
