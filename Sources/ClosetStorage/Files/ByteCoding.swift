import Foundation

/// Little-endian binary writing and bounds-checked reading: the store's record format is
/// read back with no `JSONDecoder` and no trust in the bytes.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func i64(_ value: Int64) { u64(UInt64(bitPattern: value)) }

    mutating func uuid(_ id: UUID) {
        withUnsafeBytes(of: id.uuid) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ text: String) {
        let utf8 = Array(text.utf8)
        u32(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// Instants are kept as whole milliseconds since 1970.
    mutating func date(_ date: Date) { i64(Int64((date.timeIntervalSince1970 * 1000).rounded())) }
}

struct ByteReader {
    struct Malformed: Error {}

    let bytes: [UInt8]
    var position: Int
    let end: Int

    init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        self.position = start
        self.end = end ?? bytes.count
    }

    var isAtEnd: Bool { position >= end }

    mutating func take(_ count: Int) throws(Malformed) -> Range<Int> {
        guard count >= 0, count <= end - position else { throw Malformed() }
        defer { position += count }
        return position..<(position + count)
    }

    mutating func u8() throws(Malformed) -> UInt8 { bytes[try take(1).lowerBound] }

    mutating func u32() throws(Malformed) -> UInt32 {
        let range = try take(4)
        var value: UInt32 = 0
        for (shift, index) in range.enumerated() { value |= UInt32(bytes[index]) << (8 * UInt32(shift)) }
        return value
    }

    mutating func u64() throws(Malformed) -> UInt64 {
        let range = try take(8)
        var value: UInt64 = 0
        for (shift, index) in range.enumerated() { value |= UInt64(bytes[index]) << (8 * UInt64(shift)) }
        return value
    }

    mutating func i64() throws(Malformed) -> Int64 { Int64(bitPattern: try u64()) }

    mutating func uuid() throws(Malformed) -> UUID {
        let r = try take(16)
        let b = bytes
        let s = r.lowerBound
        return UUID(uuid: (b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7],
                           b[s + 8], b[s + 9], b[s + 10], b[s + 11], b[s + 12], b[s + 13], b[s + 14], b[s + 15]))
    }

    mutating func string() throws(Malformed) -> String {
        let count = Int(try u32())
        let range = try take(count)
        return String(decoding: bytes[range], as: UTF8.self)
    }

    mutating func date() throws(Malformed) -> Date {
        Date(timeIntervalSince1970: Double(try i64()) / 1000)
    }
}
