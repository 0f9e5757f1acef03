import ClosetCore
import ClosetLanguage
import ClosetTables
import Foundation

/// `import stories|comments|donations from=<file>`: what the exports write, read back, every
/// row checked and nothing kept if one is bad. A story or a comment is its own `add`, row by
/// row (`TransferFiles.importThroughAdd`); a donation's receipt is written `R-000012`, so its
/// rows are read here. Authors and users default to me; a story's pictures are read from
/// `images=` by the names the file gives; its comments come with `import comments`, and its
/// likes (who liked it) are not in the file: `.dump` moves them.
enum Imports {
    static let stories = CommandSpec(
        path: ["import", "stories"],
        summary: "add stories from a .json or .csv file (as export writes them): every row or none",
        keys: [TransferFiles.fromKey, TransferFiles.imagesKey],
        notes: [
            CommunityRecords.story.importFields,
            "images: up to five files in images= (default: the file's folder).",
        ],
        examples: ["import stories from=stories.json", "import stories from=out/stories.json images=out/pictures"],
        run: { invocation in
            _ = try invocation.state(AdoptionState.self)
            return try TransferFiles.importThroughAdd(
                invocation, schema: CommunityRecords.story,
                ignoring: ["images", "likes", "liked", "comments", "cursor"])
        })

    static let comments = CommandSpec(
        path: ["import", "comments"],
        summary: "add comments from a .json or .csv file (as export writes them): every row or none",
        keys: [TransferFiles.fromKey],
        notes: [CommunityRecords.comment.importFields, "story: an existing story's id."],
        examples: ["import comments from=comments.csv"],
        run: { invocation in
            _ = try invocation.state(AdoptionState.self)
            return try TransferFiles.importThroughAdd(invocation, schema: CommunityRecords.comment)
        })

    static let donations = CommandSpec(
        path: ["import", "donations"],
        summary: "add donations from a .json or .csv file (as export writes them): every row or none",
        keys: [TransferFiles.fromKey],
        notes: ["Fields: amount (required, 1,000 to 1,000,000 in thousands), user, dog, message, createdAt, receipt."],
        examples: ["import donations from=donations.json"],
        run: { invocation in
            let state = try invocation.state(AdoptionState.self)
            return try importRows(
                invocation, state, Adoption.donation, sequence: "donation", id: \.id, ignoring: ["status", "label"],
                store: { state.community.donations.upsert($0) }
            ) { row, taken throws(TransferFiles.RowProblem) in
                // `R-000012`, as a receipt is written, or the number alone.
                var receipt = row
                if let text = TransferFiles.text(row, "receipt") {
                    receipt.fields["receipt"] = .some(String(text.drop { !$0.isNumber }))
                }
                let id = try TransferFiles.freeID(receipt, "receipt", taken: &taken) {
                    state.community.donations[$0] != nil
                }
                let amountText = try TransferFiles.required(row, "amount")
                guard let amount = Int(amountText), (1000...1_000_000).contains(amount), amount % 1000 == 0 else {
                    throw TransferFiles.RowProblem(
                        line: row.line, message: "amount \(amountText) is not 1,000 to 1,000,000 in thousands")
                }
                return Donation(
                    id: id ?? 0, user: TransferFiles.text(row, "user") ?? state.user(), amount: amount,
                    dog: TransferFiles.text(row, "dog"),
                    message: TransferFiles.text(row, "message"),
                    createdAt: try TransferFiles.date(row, "createdAt") ?? invocation.clock.now())
            }
        })

    /// One import: the file read with every field the kind's export may write, every row
    /// checked (nothing kept if one is bad), then stored, rows that keep their ids first so an
    /// id drawn for another never takes one of theirs.
    static func importRows<Item>(
        _ invocation: Invocation, _ state: AdoptionState, _ kind: EntityKind, sequence: String,
        id: WritableKeyPath<Item, Int>, ignoring: Set<String> = [], store: (Item) throws -> Void,
        check: (TransferFiles.Row, inout Set<Int>) throws(TransferFiles.RowProblem) -> Item
    ) throws -> Outcome {
        let (path, rows) = try TransferFiles.readRows(
            invocation, fieldNames: kind.fieldNames, entity: kind.singular, ignoring: ignoring)
        var taken = Set<Int>()
        let items = try TransferFiles.checkAll(rows, path: path, fieldNames: kind.fieldNames, invocation) {
            row throws(TransferFiles.RowProblem) in try check(row, &taken)
        }
        for var item in items.filter({ $0[keyPath: id] != 0 }) + items.filter({ $0[keyPath: id] == 0 }) {
            // Past the last id, the statement fails and its transaction keeps none of the rows.
            guard let taken = state.community.take(sequence, id: item[keyPath: id] == 0 ? nil : item[keyPath: id])
            else { throw Diagnostic.noIDLeft(sequence, at: invocation.call.range) }
            item[keyPath: id] = taken
            try store(item)
        }
        return TransferFiles.imported(items.count, from: path)
    }
}
