/// CRC-32 (IEEE 802.3, the zlib/PNG polynomial). Guards every journal record and snapshot
/// against torn writes and flipped bits, and names stored pictures. Slicing-by-8 (eight
/// tables, eight bytes a step): a 100,000-row snapshot is checked on every open.
public enum Checksum {
    @usableFromInline static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            tables[index] = value
        }
        for index in 0..<256 {
            for slice in 1..<8 {
                let previous = tables[(slice - 1) * 256 + index]
                tables[slice * 256 + index] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    @inlinable
    public static func crc32(_ bytes: UnsafeRawBufferPointer, initial: UInt32 = 0) -> UInt32 {
        var crc = ~initial
        tables.withUnsafeBufferPointer { t in
            var position = 0
            let count = bytes.count
            while position + 8 <= count {
                let low = bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian ^ crc
                let high = bytes.loadUnaligned(fromByteOffset: position + 4, as: UInt32.self).littleEndian
                crc =
                    t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
                    ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ t[1 * 256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
                position += 8
            }
            while position < count {
                crc = t[Int((crc ^ UInt32(bytes[position])) & 0xFF)] ^ (crc >> 8)
                position += 1
            }
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
