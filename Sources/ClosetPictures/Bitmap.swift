import ClosetCore

/// A decoded picture: 8-bit red, green, blue and alpha per pixel, rows top to bottom.
public struct Bitmap: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The most pixels a decoder makes (64 megapixels: 256 MB of RGBA), checked from a file's
    /// header before anything is allocated.
    public static let maximumPixels = 64 << 20
}
