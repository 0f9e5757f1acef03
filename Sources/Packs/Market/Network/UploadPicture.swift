import ClosetCore
import ClosetPictures

/// The app's `compress(target: 300)`: every picture goes up as a JPEG of about 300 KB (20 % over
/// is accepted). A JPEG already within that is sent as it is (re-encoding would only lose
/// detail); anything else is decoded and encoded again, at the highest quality that fits, then
/// smaller, as the app did.
enum UploadPicture {
    static let target = 300 * 1024
    static let accepted = target * 12 / 10

    static func jpeg(_ bytes: [UInt8], _ info: ImageInfo) throws(UploadPictureError) -> [UInt8] {
        if info.format == .jpeg, bytes.count <= accepted { return bytes }
        let bitmap: Bitmap
        do {
            bitmap = try PictureDecoder.decode(bytes)
        } catch {
            throw UploadPictureError(reason: error.message)
        }
        return JPEGEncoder.encode(bitmap, fittingIn: accepted)
    }
}

/// A picture that cannot be made a JPEG to upload: the statement fails, nothing is sent.
struct UploadPictureError: Error, LocalizedMessage {
    var reason: String
    var message: String { "a picture cannot be made a JPEG to upload: \(reason)" }
}
