import Foundation

/// Little-endian binary writing and bounds-checked reading: the store's record format is
/// read back with no `JSONDecoder` and no trust in the bytes.
public struct ByteWriter {
    /// What is written and not yet handed to `sink` (all of it when there is none).
    public var bytes: [UInt8] = []
    /// Where a long write goes as it is made (a snapshot streamed to its file), a piece at a
    /// time where its writer says it may (`drainIfFull`); nil: everything stays in `bytes`.
    public var sink: (any ByteSink)?
    /// How many bytes went to `sink` already: `bytes[0]` is at this position.
    public private(set) var drained = 0

    public init() {}

    public init(sink: any ByteSink) { self.sink = sink }

    /// The position of the next byte written, counting what went to the sink.
    @inlinable public var position: Int { drained + bytes.count }

    /// Hands what is written to the sink once it holds a piece's worth: the writer's memory
    /// stays near one piece however long the whole. Only where nothing later refers into
    /// `bytes` by index (positions are kept with `position`, patched with `patch`).
    @inlinable public mutating func drainIfFull() {
        if let sink, bytes.count >= sink.pieceSize { drain() }
    }

    public mutating func drain() {
        guard let sink, !bytes.isEmpty else { return }
        sink.append(bytes)
        drained += bytes.count
        bytes.removeAll(keepingCapacity: true)
    }

    /// Writes eight bytes over those at `position` (a length known only later), in `bytes`
    /// or in the sink.
    public mutating func patch(at position: Int, _ value: UInt64) {
        let encoded = (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
        overwrite(at: position, with: encoded)
    }

    public mutating func overwrite(at position: Int, with encoded: [UInt8]) {
        if position >= drained {
            bytes.replaceSubrange((position - drained)..<(position - drained + encoded.count), with: encoded)
        } else if let sink {
            sink.overwrite(at: position, with: encoded)
        }
    }

    /// The eight bytes at `position` as a number, wherever they are.
    public func u64(at position: Int) -> UInt64 {
        let encoded =
            position >= drained
            ? Array(bytes[(position - drained)..<(position - drained + 8)])
            : sink?.read(at: position, count: 8) ?? []
        guard encoded.count == 8 else { return 0 }
        return (0..<8).reduce(0) { $0 | UInt64(encoded[$1]) << (8 * UInt64($1)) }
    }

    /// Room for `count` more bytes, grown as appending grows it (at least doubling): an exact
    /// reservation before each part of a snapshot copied everything written so far each time.
    @inlinable public mutating func reserve(_ count: Int) {
        let needed = bytes.count + count
        if bytes.capacity < needed { bytes.reserveCapacity(Swift.max(needed, bytes.capacity * 2)) }
    }

    // Byte by byte: appending a raw buffer goes through a generic path that cost ten times
    // as much per integer (most of writing a snapshot).
    @inlinable public mutating func u8(_ value: UInt8) { bytes.append(value) }
    @inlinable public mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }
    @inlinable public mutating func u32(_ value: UInt32) {
        for shift in stride(from: 0 as UInt32, to: 32, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }
    @inlinable public mutating func u64(_ value: UInt64) {
        for shift in stride(from: 0 as UInt64, to: 64, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }
    @inlinable public mutating func i64(_ value: Int64) { u64(UInt64(bitPattern: value)) }
    /// A pack's whole number (an id, an amount) as eight bytes, by bit pattern: never a trap,
    /// and `wholeNumber()` refuses what no stored number can be (a negative one).
    @inlinable public mutating func wholeNumber(_ value: Int) { u64(UInt64(bitPattern: Int64(value))) }

    @inlinable public mutating func uuid(_ id: UUID) {
        // As two integers read in memory order, so the sixteen bytes keep theirs.
        let (first, second) = withUnsafeBytes(of: id.uuid) { raw in
            (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
        u64(UInt64(littleEndian: first))
        u64(UInt64(littleEndian: second))
    }

    @inlinable public mutating func string(_ text: String) {
        u32(UInt32(text.utf8.count))
        // In one copy: appending the UTF-8 view went a byte at a time.
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// A column of integers, each little-endian: one copy on a little-endian machine.
    @inlinable public mutating func column<T: FixedWidthInteger>(_ values: [T]) {
        #if _endian(little)
            values.withUnsafeBytes { bytes.append(contentsOf: $0) }
        #else
            for value in values { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        #endif
    }

    /// Instants are kept as whole milliseconds since 1970.
    @inlinable public mutating func date(_ date: Date) { i64(Int64((date.timeIntervalSince1970 * 1000).rounded())) }
}

/// Where a `ByteWriter` streams: a file written as it is made. Failures are kept by the sink
/// (its writer cannot throw mid-row) and asked for once the whole is written.
public protocol ByteSink: AnyObject {
    /// How many bytes a writer gathers before handing them over.
    var pieceSize: Int { get }
    func append(_ bytes: [UInt8])
    func overwrite(at position: Int, with bytes: [UInt8])
    /// Bytes already handed over, read back (empty if they cannot be, and the write then fails).
    func read(at position: Int, count: Int) -> [UInt8]
}

/// Reads what `ByteWriter` wrote, checking every length against the end first. Works on raw
/// memory: opening a 100,000-row store decodes every byte once, and generic slice iteration
/// was most of that time.
public struct ByteReader {
    public struct Malformed: Error {
        public init() {}
    }

    public let bytes: [UInt8]
    public var position: Int
    public var end: Int

    public init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        self.position = start
        self.end = min(end ?? bytes.count, bytes.count)
    }

    /// Reads the given range of the same bytes next (a row inside a larger file).
    @inlinable package mutating func reposition(to range: Range<Int>) {
        position = range.lowerBound
        end = min(range.upperBound, bytes.count)
    }

    public var isAtEnd: Bool { position >= end }

    @inline(__always)
    public mutating func take(_ count: Int) throws(Malformed) -> Int {
        guard count >= 0, count <= end - position else { throw Malformed() }
        defer { position += count }
        return position
    }

    public mutating func u8() throws(Malformed) -> UInt8 { bytes[try take(1)] }

    public mutating func u16() throws(Malformed) -> UInt16 {
        let start = try take(2)
        return bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: start, as: UInt16.self).littleEndian }
    }

    /// The next `count` bytes, copied.
    public mutating func raw(_ count: Int) throws(Malformed) -> [UInt8] {
        let start = try take(count)
        return Array(bytes[start..<(start + count)])
    }

    public mutating func u32() throws(Malformed) -> UInt32 {
        let start = try take(4)
        return bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: start, as: UInt32.self).littleEndian }
    }

    public mutating func u64() throws(Malformed) -> UInt64 {
        let start = try take(8)
        return bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: start, as: UInt64.self).littleEndian }
    }

    public mutating func i64() throws(Malformed) -> Int64 { Int64(bitPattern: try u64()) }

    /// What `wholeNumber(_:)` wrote; eight bytes past `Int.max` are damage, not a number.
    public mutating func wholeNumber() throws(Malformed) -> Int {
        let value = try u64()
        guard value <= UInt64(Int.max) else { throw Malformed() }
        return Int(value)
    }

    public mutating func uuid() throws(Malformed) -> UUID {
        let start = try take(16)
        return bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(fromByteOffset: start, as: uuid_t.self)) }
    }

    public mutating func string() throws(Malformed) -> String {
        let count = Int(try u32())
        let start = try take(count)
        return bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[start..<(start + count)]), as: UTF8.self)
        }
    }

    public mutating func date() throws(Malformed) -> Date {
        Date(timeIntervalSince1970: Double(try i64()) / 1000)
    }
}
