import CStoreSupport

/// CRC-32C over the store's files (format 3): the processor's instruction where it has one,
/// so verifying a snapshot on every open costs a fraction of the query it serves.
package enum StoreChecksum {
    package static func crc32c(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        closet_crc32c(crc, bytes.baseAddress, bytes.count)
    }

    package static func crc32c(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { crc32c($0, continuing: crc) }
    }

    package static func crc32c(_ bytes: ArraySlice<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { crc32c($0, continuing: crc) }
    }

    /// The table-driven code alone (the fallback on processors without the instruction).
    package static func softwareCRC32C(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { closet_crc32c_software(crc, $0.baseAddress, $0.count) }
    }

    package static var usesHardware: Bool { closet_crc32c_uses_hardware() != 0 }
}
