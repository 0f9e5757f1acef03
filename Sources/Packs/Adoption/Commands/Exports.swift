import ClosetCore
import ClosetLanguage
import ClosetTables

/// `export stories|comments|donations to=<file>`: the community's rows to JSON or CSV, as
/// their listings show them (every story, every comment or a story's, my donations).
/// `export stories images=<folder>` copies the stories' pictures there by the names the file
/// gives them, each checked against its checksum, so `import stories` reads them back.
enum Exports {
    static let stories = CommandSpec(
        path: ["export", "stories"],
        summary: "write every story (with its comments) to a .json or .csv file",
        keys: [TransferFiles.toKey, TransferFiles.imagesKey],
        examples: ["export stories to=stories.json", "export stories to=out/stories.json images=out/pictures"],
        run: { invocation in
            let state = try invocation.state(AdoptionState.self)
            let community = state.community
            let stories = community.stories.rows.sorted { $0.id > $1.id }
            let user = state.user()
            let records = stories.map { story in
                CommunityRecords.record(
                    story, likes: community.likeCount(story.id),
                    liked: community.likes[LikeTable.key(of: Like(story: story.id, user: user))] != nil,
                    comments: community.commentsOf(story.id))
            }
            return try TransferFiles.export(
                Adoption.story, stories.map { .opaque(String($0.id)) }, invocation: invocation,
                pictures: {
                    try stories.flatMap { story in
                        try story.pictures.map { picture throws(Diagnostic) in
                            guard let bytes = community.blobs.read(named: picture.name),
                                Checksum.crc32(bytes) == picture.info.checksum
                            else { throw Diagnostic.storyPictureDamaged(picture.name, story: story.id) }
                            return (picture.name, bytes)
                        }
                    }
                }
            ) { records }
        })

    static let comments = CommandSpec(
        path: ["export", "comments"],
        summary: "write every comment, or a story's, to a .json or .csv file",
        keys: [KeySpec("story", Comments.storyKey.kind, "only this story's"), TransferFiles.toKey],
        examples: ["export comments to=comments.csv", "export comments story=3 to=three.json"],
        run: { invocation in
            let state = try invocation.state(AdoptionState.self)
            var comments = state.community.comments.rows.sorted { $0.id < $1.id }
            if invocation.argument("story") != nil {
                let story = try Stories.story(
                    state, try Comments.storyID(invocation), at: invocation.argument("story")?.range)
                comments = state.community.commentsOf(story.id)
            }
            return try export(
                Adoption.comment, comments.map { .opaque(String($0.id)) }, comments.map(CommunityRecords.record),
                invocation)
        })

    static let donations = CommandSpec(
        path: ["export", "donations"],
        summary: "write my donations to a .json or .csv file",
        keys: [TransferFiles.toKey],
        examples: ["export donations to=donations.csv"],
        run: { invocation in
            let state = try invocation.state(AdoptionState.self)
            let mine = state.community.donations.rows.filter { $0.user == state.user() }
            return try export(
                Adoption.donation, mine.map { .opaque($0.receipt) }, mine.map(CommunityRecords.record), invocation)
        })

    static func export(_ kind: EntityKind, _ keys: [EntityKey], _ records: [Record], _ invocation: Invocation)
        throws -> Outcome
    {
        try TransferFiles.export(kind, keys, invocation: invocation) { records }
    }
}
