import ClosetCore

/// A stored picture's bytes to pixels, by what the bytes are (PNG or JPEG, as `ImageHeader`
/// tells them apart), with one message for whatever stops it.
public enum PictureDecoder {
    public struct Failure: Error, Equatable, Sendable {
        public var message: String
    }

    /// `drawnWithin`: the largest the picture will be drawn, when known: a JPEG is then decoded
    /// reduced inside its transform, a PNG reduced as its rows are unfiltered, never smaller
    /// than that (`JPEGDecoder.decode`, `PNGDecoder.decode`).
    public static func decode(_ bytes: [UInt8], drawnWithin box: (width: Int, height: Int)? = nil) throws(Failure)
        -> Bitmap
    {
        if bytes.starts(with: PNGDecoder.signature) {
            do { return try PNGDecoder.decode(bytes, drawnWithin: box) } catch { throw Failure(message: error.message) }
        }
        if bytes.starts(with: [0xFF, 0xD8]) {
            do { return try JPEGDecoder.decode(bytes, drawnWithin: box) } catch {
                throw Failure(message: error.message)
            }
        }
        throw Failure(message: "not a PNG or JPEG picture")
    }
}
