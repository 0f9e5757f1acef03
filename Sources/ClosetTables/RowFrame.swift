import ClosetCore

/// How one row or key is framed inside a store file, shared by the tables (which write their
/// rows straight into the file's buffer, with no per-row arrays) and the store files that
/// hold them:
///
///     put:    1 u8 | key length u16 | key | row length u32 | row
///     delete: 2 u8 | key length u16 | key
///     insert: 3 u8 | key length u16 | key | row length u32 | row
///     snapshot row: key length u16 | key | row length u32 | row
///
/// An insert is a put of a key that had no row before the commit: read back at open, it is
/// placed without looking for its key in the rows below (`LazyRows.settle`).
public enum RowFrame {
    @usableFromInline package static let put: UInt8 = 1
    @usableFromInline static let delete: UInt8 = 2
    @usableFromInline package static let insert: UInt8 = 3

    /// Writes a length-prefixed part, patching the length in after `body` wrote it.
    @inlinable public static func part16(_ writer: inout ByteWriter, _ body: (inout ByteWriter) -> Void) {
        let at = writer.bytes.count
        writer.u16(0)
        body(&writer)
        let length = UInt16(clamping: writer.bytes.count - at - 2)
        writer.bytes[at] = UInt8(truncatingIfNeeded: length)
        writer.bytes[at + 1] = UInt8(truncatingIfNeeded: length >> 8)
    }

    /// Walks `count` snapshot rows from the reader's position: `body` reads each row with the
    /// reader bounded to it (and must read it whole); the reader is left after the last.
    @inlinable static func forEachSnapshotRow(
        _ count: Int, in reader: inout ByteReader, _ body: (inout ByteReader) throws(ByteReader.Malformed) -> Void
    ) throws(ByteReader.Malformed) {
        let end = reader.end
        for _ in 0..<count {
            _ = try reader.take(Int(try reader.u16()))  // the key: the row holds it too
            let length = Int(try reader.u32())
            let start = try reader.take(length)
            reader.reposition(to: start..<(start + length))
            try body(&reader)
            guard reader.isAtEnd else { throw ByteReader.Malformed() }
            reader.reposition(to: reader.position..<end)
        }
    }

    @inlinable public static func part32(_ writer: inout ByteWriter, _ body: (inout ByteWriter) -> Void) {
        let at = writer.bytes.count
        writer.u32(0)
        body(&writer)
        let length = UInt32(clamping: writer.bytes.count - at - 4)
        for shift in 0..<4 { writer.bytes[at + shift] = UInt8(truncatingIfNeeded: length >> (8 * shift)) }
    }
}

/// A table's pending operations, framed in one buffer: each with the log position of its
/// first change (to merge tables in that order) and where its bytes lie.
public struct FramedOperations {
    public var bytes = ByteWriter()
    public var operations: [(position: Int, range: Range<Int>)] = []

    public init() {}
}
