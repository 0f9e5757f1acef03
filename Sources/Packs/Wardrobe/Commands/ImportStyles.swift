import ClosetCore
import ClosetLanguage
import Foundation

/// `import styles from=<file>`: what `export styles` writes, read back all or nothing. Each
/// slot names a clothes already in the store, of that slot's category; a style needs one.
enum ImportStyles {
    static let spec = CommandSpec(
        path: ["import", "styles"],
        summary: "add styles from a .json or .csv file (as export writes them): every row or none",
        keys: [TransferFiles.fromKey],
        notes: [
            "Fields: season (English or Korean), name, createdAt, id (kept if free), and a clothes id per slot",
            "(outer, top, bottom, shoes, accessory), each of a clothes in the store; at least one slot.",
        ],
        examples: ["import styles from=styles.json"],
        run: { invocation in
            let state = try invocation.state(WardrobeState.self)
            let fields = Wardrobe.style.fieldNames
            let (path, rows) = try TransferFiles.readRows(
                invocation, fieldNames: fields, entity: "style", ignoring: ["clothes"])
            var seen = Set<UUID>()
            let styles = try TransferFiles.checkAll(rows, path: path, fieldNames: fields, invocation) {
                row throws(TransferFiles.RowProblem) in
                try check(row, invocation, state, seen: &seen)
            }
            for style in styles { try state.store.save(style: style) }
            return TransferFiles.imported(styles.count, from: path)
        })

    private static func check(
        _ row: TransferFiles.Row, _ invocation: Invocation, _ state: WardrobeState, seen: inout Set<UUID>
    ) throws(TransferFiles.RowProblem) -> Style {
        func text(_ key: String) -> String? { (row.fields[key] ?? nil).flatMap { $0.isEmpty ? nil : $0 } }
        let problem = { (message: String) in TransferFiles.RowProblem(line: row.line, message: message) }
        var season = WeatherType.allWeather
        if text("season") != nil { season = try TransferFiles.term(row, "season", WeatherType.self, missing: "") }
        // CSV names each slot's clothes in its own column; JSON lists the clothes objects.
        var named: [(category: ClothesCategory, id: String)] = ClothesCategory.allCases.compactMap { category in
            text(category.englishName).map { (category, $0) }
        }
        var index = 0
        while let idText = text("clothes.\(index).id") {
            guard let categoryText = text("clothes.\(index).category"),
                let category = ClothesCategory.named(categoryText)
            else { throw problem("clothes \(index + 1) has no category") }
            named.append((category, idText))
            index += 1
        }
        var slots: [ClothesCategory: Clothes] = [:]
        for (category, idText) in named {
            guard let id = UUID(text: idText), let clothes = state.store.clothes(withID: id) else {
                throw problem("\(category.englishName) '\(idText)' is not a clothes in the store")
            }
            guard clothes.category == category else {
                throw problem(
                    "\(category.englishName) '\(idText)' is a \(clothes.category.englishName), not a \(category.englishName)"
                )
            }
            slots[category] = clothes
        }
        guard !slots.isEmpty else {
            throw problem("a style needs at least one clothes (a slot: outer, top, bottom, shoes or accessory)")
        }
        var given: UUID?
        if let idText = text("id") {
            guard let id = UUID(text: idText) else { throw problem("'\(idText)' is not a full id") }
            guard state.store.style(withID: id) == nil else {
                throw problem("id \(id.uuidString) is already in the store")
            }
            guard seen.insert(id).inserted else { throw problem("id \(id.uuidString) appears twice in the file") }
            given = id
        }
        var created = invocation.clock.now
        if let dateText = text("createdAt") {
            guard let date = Timestamp.parse(dateText) else {
                throw problem("'\(dateText)' is not a date; write 2024-05-17 or 2024-05-17T09:30:00Z")
            }
            created = { date }
        }
        let taken = seen
        let id = given ?? invocation.newID { state.store.style(withID: $0) != nil || taken.contains($0) }
        seen.insert(id)
        return Style(uuid: id, createdAt: created(), clothes: slots, weather: season, name: text("name"))
    }
}
