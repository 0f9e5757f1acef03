/// CRC-32 (IEEE 802.3, the zlib/PNG polynomial), table-driven. Guards every journal record
/// and snapshot against torn writes and flipped bits, and names stored pictures.
public enum Checksum {
    @usableFromInline static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// Over raw memory: the hot path (a 100,000-row snapshot is checked on every open).
    @inlinable
    public static func crc32(_ bytes: UnsafeRawBufferPointer, initial: UInt32 = 0) -> UInt32 {
        var crc = ~initial
        table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return ~crc
    }

    @inlinable
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { crc32($0) }
    }

    @inlinable
    public static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBytes { crc32($0) }
    }
}
