import ClosetCore
import ClosetLanguage
import Foundation

/// `import clothes from=<file> [images=<folder>]`: how a row read back becomes clothes, with its
/// picture where the row has one (`<id>.png` or `<id>.jpg` in the folder, as `export clothes
/// images=` writes them). Files, formats, bad-row reports and all-or-nothing are the engine's
/// (`TransferFiles`).
enum ImportClothes {
    static let spec = CommandSpec(
        path: ["import", "clothes"],
        summary: "add clothes from a .json or .csv file: every row or none",
        keys: [TransferFiles.fromKey, TransferFiles.imagesKey],
        notes: [
            "Fields: category and season (required; English or Korean), description, createdAt, id (kept if given).",
            "A row naming a picture has it as <id>.png or <id>.jpg in images= (missing: a bad row), else beside the file (missing: left out, with a note).",
            "Every row is checked first; one bad row and nothing is imported.",
        ],
        examples: [
            "import clothes from=wardrobe.json", "import clothes from=sheet.csv",
            "import clothes from=out/wardrobe.json images=out/pictures",
        ],
        run: run)

    /// What `export clothes` writes: the schema's csv columns (JSON has the same names).
    static let fieldNames = Wardrobe.clothes.dataColumns

    static func run(_ invocation: Invocation) throws -> Outcome {
        let state = try invocation.state(WardrobeState.self)
        let (path, rows) = try TransferFiles.readRows(invocation, fieldNames: fieldNames, entity: "clothes")
        let folder = TransferFiles.pictureFolder(invocation, file: path)
        // Without `images=`, a picture not beside the file was not exported with it (`export
        // clothes` without `images=`): the row comes without it, and a note says so. With
        // `images=`, a missing picture is a bad row.
        let folderGiven = invocation.argument("images") != nil
        var left = 0
        var seen = Set<UUID>()
        let clothes = try TransferFiles.checkAll(rows, path: path, fieldNames: fieldNames, invocation) {
            row throws(TransferFiles.RowProblem) -> (Clothes, [UInt8]?) in
            var item = try check(row, invocation, state, seen: &seen)
            guard TransferFiles.text(row, "image") != nil else { return (item, nil) }
            guard let picture = try TransferFiles.picture(named: item.id.uuidString, in: folder, row: row, invocation)
            else {
                if folderGiven { throw TransferFiles.missingPicture(item.id.uuidString, in: folder, row: row) }
                left += 1
                return (item, nil)
            }
            item.image = picture.info
            return (item, picture.bytes)
        }
        let viewModel = ClothesDetailViewModel(clothes: nil, repository: state.store)
        for (item, bytes) in clothes {
            if let bytes, let image = item.image { try state.store.storeImage(bytes, image, for: item.id) }
            try viewModel.save(clothes: item)
        }
        if left > 0 {
            invocation.host.write(
                "note: \(left) row\(left == 1 ? " names a picture" : "s name pictures") not beside '\(path)'; imported without (export clothes images=<folder> copies them)\n",
                to: .standardError)
        }
        return TransferFiles.imported(clothes.count, from: path)
    }

    private static func check(
        _ row: TransferFiles.Row, _ invocation: Invocation, _ state: WardrobeState, seen: inout Set<UUID>
    ) throws(TransferFiles.RowProblem) -> Clothes {
        let line = row.line
        let category = try TransferFiles.term(
            row, "category", ClothesCategory.self,
            missing: ClothesDetailViewModel.ValidationError.missingCategory.message)
        let season = try TransferFiles.term(
            row, "season", WeatherType.self, missing: ClothesDetailViewModel.ValidationError.missingWeather.message)
        var given: UUID?
        if let text = row.fields["id"] ?? nil {
            guard let pinned = UUID(text: text) else {
                throw TransferFiles.RowProblem(line: line, message: "'\(text)' is not a full id")
            }
            guard seen.insert(pinned).inserted else {
                throw TransferFiles.RowProblem(line: line, message: "id \(pinned.uuidString) appears twice in the file")
            }
            guard state.store.clothes(withID: pinned) == nil else {
                throw TransferFiles.RowProblem(line: line, message: "id \(pinned.uuidString) is already in the store")
            }
            given = pinned
        }
        var created = invocation.clock.now
        if let text = row.fields["createdAt"] ?? nil {
            guard let date = Timestamp.parse(text) else {
                throw TransferFiles.RowProblem(
                    line: line, message: "'\(text)' is not a date; write 2024-05-17 or 2024-05-17T09:30:00Z")
            }
            created = { date }
        }
        // Drawn last, so a bad row uses up no id (later ids stay as they were).
        let taken = seen
        let id = given ?? invocation.newID { state.store.clothes(withID: $0) != nil || taken.contains($0) }
        seen.insert(id)
        return Clothes(
            id: id, createdAt: created(), category: category, weatherType: season,
            descriptions: (row.fields["description"] ?? nil) ?? "")
    }
}
