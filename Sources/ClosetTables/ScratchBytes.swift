import ClosetCore

/// Bytes appended in order and read back later, held in a scratch file (`ScratchFile`) a piece
/// at a time: the columns and sorted runs of a section's index made outside memory
/// (`ScratchIndex`, `ScratchSort`). Without a file, or once the file refuses a write (a full
/// disk), they are held in memory: what was written is read back and kept with the rest, so
/// nothing appended is lost and the caller never fails.
///
/// The piece being gathered is raw memory written in place: appended to an array, each number
/// or record went through the array's generic copy (a quarter of an import's index at 100,000
/// rows).
@usableFromInline final class ScratchBytes {
    /// How many bytes are gathered before they go to the file, at most.
    @usableFromInline static let pieceSize = 1 << 20

    @usableFromInline let pieceSize: Int
    private var file: ScratchFile?
    /// The piece being gathered (`pieceSize` bytes of room), and how much of it is used.
    @usableFromInline let piece: UnsafeMutableRawPointer
    @usableFromInline var used = 0
    /// How many bytes went to the file, or are held in `memory` (never both).
    @usableFromInline var stored = 0
    private var memory: [UInt8] = []

    /// `pieceSize` smaller than the usual for small sorts (and tests).
    @usableFromInline init(file: ScratchFile?, pieceSize: Int = ScratchBytes.pieceSize) {
        self.file = file
        self.pieceSize = max(16, min(pieceSize, Self.pieceSize))
        piece = UnsafeMutableRawPointer.allocate(byteCount: self.pieceSize, alignment: 8)
    }

    deinit { piece.deallocate() }

    /// Every byte appended.
    @usableFromInline var count: Int { stored + used }

    @inlinable func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if used + bytes.count > pieceSize {
            flush()
            if bytes.count > pieceSize {
                store(bytes)
                return
            }
        }
        (piece + used).copyMemory(from: source, byteCount: bytes.count)
        used += bytes.count
    }

    @inlinable func append<T: FixedWidthInteger>(littleEndian value: T) {
        if used + MemoryLayout<T>.size > pieceSize { flush() }
        (piece + used).storeBytes(of: value.littleEndian, as: T.self)
        used += MemoryLayout<T>.size
    }

    /// Drops the bytes past `count` (an undone row's): later ones are written over them.
    @usableFromInline func truncate(to count: Int) {
        guard count < self.count else { return }
        if count >= stored {
            used = count - stored
        } else {
            used = 0
            stored = count
            if file == nil { memory.removeLast(memory.count - count) }
        }
    }

    /// Moves the piece to the file (or memory).
    @usableFromInline func flush() {
        store(UnsafeRawBufferPointer(start: piece, count: used))
        used = 0
    }

    /// Puts `bytes` after those stored; on a refused write, keeps everything in memory from then on.
    @usableFromInline func store(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        if let file {
            if file.write(bytes, at: stored) {
                stored += bytes.count
                return
            }
            memory = [UInt8](repeating: 0, count: stored)
            memory.withUnsafeMutableBytes { readFromFile(file, into: $0, at: 0) }
            self.file = nil
        }
        memory.append(contentsOf: bytes)
        stored += bytes.count
    }

    /// Fills `buffer` with the bytes from `offset` (all within `count`).
    @usableFromInline func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) {
        var filled = 0
        if offset < stored {
            filled = min(buffer.count, stored - offset)
            let part = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<filled])
            if let file {
                readFromFile(file, into: part, at: offset)
            } else {
                memory.withUnsafeBytes {
                    part.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + filled)]))
                }
            }
        }
        guard filled < buffer.count, let target = buffer.baseAddress else { return }
        let from = offset + filled - stored
        (target + filled).copyMemory(from: piece + from, byteCount: buffer.count - filled)
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
