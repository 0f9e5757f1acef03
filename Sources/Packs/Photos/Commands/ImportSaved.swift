import ClosetCore
import ClosetLanguage
import Foundation

/// `import saved from=<file> [images=<folder>]`: what `export saved` writes, read back with
/// each photo's picture (`<id>.png` or `<id>.jpg` in the folder, as `images=` exports them),
/// every row checked first and nothing kept if one is bad. The display height is the
/// picture's, in the app's 150-point column, as `add saved` computes it.
enum ImportSaved {
    static let spec = CommandSpec(
        path: ["import", "saved"],
        summary: "add saved photos and their pictures from a file export wrote: every row or none",
        keys: [TransferFiles.fromKey, TransferFiles.imagesKey],
        notes: [
            "Fields: id and url (required), memo, savedAt; the picture is <id>.png or <id>.jpg in images=."
        ],
        examples: ["import saved from=out/saved.csv images=out/pictures"],
        run: run)

    static func run(_ invocation: Invocation) throws -> Outcome {
        let state = try invocation.state(PhotosState.self)
        let fieldNames = Photos.saved.fieldNames
        let (path, rows) = try TransferFiles.readRows(invocation, fieldNames: fieldNames, entity: "saved photo")
        let folder = TransferFiles.pictureFolder(invocation, file: path)
        var seen = Set<String>()
        var pictureIDs = Set(state.repository.fetchPictures().map(\.pictureID))
        let checked = try TransferFiles.checkAll(rows, path: path, fieldNames: fieldNames, invocation) {
            row throws(TransferFiles.RowProblem) in
            try check(row, folder: folder, invocation, state, seen: &seen, pictureIDs: &pictureIDs)
        }
        for (photo, bytes) in checked { try state.repository.save(photo, picture: bytes) }
        return TransferFiles.imported(checked.count, from: path)
    }

    static func check(
        _ row: TransferFiles.Row, folder: String, _ invocation: Invocation, _ state: PhotosState,
        seen: inout Set<String>, pictureIDs: inout Set<UUID>
    ) throws(TransferFiles.RowProblem) -> (SavedPhoto, [UInt8]) {
        func problem(_ message: String) -> TransferFiles.RowProblem {
            TransferFiles.RowProblem(line: row.line, message: message)
        }
        func text(_ key: String) -> String? { TransferFiles.text(row, key) }
        guard let id = text("id") else { throw problem("missing id") }
        guard PhotosState.isPhotoID(id) else { throw problem(Diagnostic.notAPhotoID(id, at: nil).message) }
        guard !state.repository.contains(id) else { throw problem("id \(id) is already saved") }
        guard seen.insert(id).inserted else { throw problem("id \(id) appears twice in the file") }
        guard let url = text("url") else { throw problem("missing url") }
        let savedAt = try TransferFiles.date(row, "savedAt") ?? invocation.clock.now()
        guard let (bytes, info) = try TransferFiles.picture(named: id, in: folder, row: row, invocation) else {
            throw TransferFiles.missingPicture(id, in: folder, row: row)
        }
        let taken = pictureIDs
        let pictureID = invocation.newID { taken.contains($0) }
        pictureIDs.insert(pictureID)
        let photo = SavedPhoto(
            id: id, memo: text("memo") ?? "", url: url, image: info, pictureID: pictureID,
            displayHeight: info.width > 0 ? info.height * 150 / info.width : 0, savedAt: savedAt)
        return (photo, bytes)
    }
}
