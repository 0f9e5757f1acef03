import ClosetCore
import ClosetLanguage
import Foundation

/// The photos pack's part of `.dump`: each saved photo restored with `add saved`, its
/// picture copied with `--images` (a saved photo cannot be restored without it, so without
/// `--images` its statement is written as a comment).
enum PhotosDump {
    static func write(_ state: PhotosState, into writer: inout DumpWriter) throws {
        let quote = DumpWriter.quote
        for photo in state.repository.fetchPictures() {
            let file = "photo-\(photo.id).\(photo.image.format == .png ? "png" : "jpg")"
            let path = try writer.copyChecked(named: file) { () throws(Diagnostic) -> [UInt8] in
                try state.checkedPicture(photo)
            }
            var line = DumpWriter.statement(
                "add saved", PhotosRecords.saved, photo,
                supplied: ["image": quote(path ?? file), "height": String(photo.displayHeight)])
            if path == nil {
                writer.line(
                    writer.copiesPictures
                        ? "# saved photo \(photo.id): not restored without its picture (left out above)"
                        : "# saved photo \(photo.id): its picture is not copied (use .dump --images <dir>)")
                line = "# " + line
            }
            writer.line(line)
        }
    }
}
