/// What closet knows of a stored picture: its file format, pixel size and byte count.
/// The pixels themselves live in the store's image folder, named by its owner's id.
public struct ImageInfo: Hashable, Sendable {
    public enum Format: String, Sendable, Hashable {
        case png, jpeg
    }

    public var format: Format
    public var width: Int
    public var height: Int
    public var bytes: Int
    /// CRC-32 of the file: names the stored copy, so a replaced picture never overwrites
    /// the one a not-yet-committed change may still need.
    public var checksum: UInt32

    public init(format: Format, width: Int, height: Int, bytes: Int, checksum: UInt32 = 0) {
        self.format = format
        self.width = width
        self.height = height
        self.bytes = bytes
        self.checksum = checksum
    }
}
