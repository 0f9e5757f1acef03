import ClosetCore
import ClosetLanguage
import ClosetTables
import Foundation

/// `import stories|comments|donations from=<file>`: what the exports write, read back, every
/// row checked and nothing kept if one is bad. Each row is its entity's own `add` (a donation's
/// is `donate`), run through `TransferFiles.importThroughAdd`, so a row is refused for exactly
/// what the statement is refused for (a receipt written `R-000012` is `receipt=`'s rule). Authors and users default to me; a story's pictures are read from
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
        notes: [CommunityRecords.donation.importFields],
        examples: ["import donations from=donations.json"],
        run: { invocation in
            _ = try invocation.state(AdoptionState.self)
            return try TransferFiles.importThroughAdd(
                invocation, schema: CommunityRecords.donation, ignoring: ["status", "label"], command: ["donate"])
        })
}
