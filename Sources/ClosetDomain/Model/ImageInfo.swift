/// What closet knows of a clothes' picture: its file format, pixel size and byte count.
/// The pixels themselves live in the store's image folder, named by the clothes id.
public struct ImageInfo: Hashable, Sendable {
    public enum Format: String, Sendable, Hashable {
        case png, jpeg
    }

    public var format: Format
    public var width: Int
    public var height: Int
    public var bytes: Int

    public init(format: Format, width: Int, height: Int, bytes: Int) {
        self.format = format
        self.width = width
        self.height = height
        self.bytes = bytes
    }
}
