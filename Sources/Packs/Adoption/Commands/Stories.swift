import ClosetCore
import ClosetLanguage
import ClosetTables
import Foundation

/// The stories of the community: add, list by cursor, show, like, unlike, remove.
enum Stories {
    static func state(_ invocation: Invocation) throws -> AdoptionState { try invocation.state(AdoptionState.self) }

    static func id(_ invocation: Invocation) throws(Diagnostic) -> Int {
        let text = try invocation.referenceParameter().text
        guard let id = Int(text), id > 0 else { throw .notAnID(text, "story", at: invocation.parameters.first?.range) }
        return id
    }

    static func story(_ state: AdoptionState, _ id: Int, at range: SourceRange?) throws(Diagnostic) -> Story {
        guard let story = state.community.stories[id] else { throw .noSuch("story", id, at: range) }
        return story
    }

    /// One story as the viewer sees it; in full (`detail`) for `show story`.
    static func outcome(_ state: AdoptionState, _ story: Story, detail: Bool = false) -> Outcome {
        let community = state.community
        let row = CommunityRecords.StoryRow(
            story: story, likes: community.likeCount(story.id),
            liked: community.likes[LikeTable.key(of: Like(story: story.id, user: state.user()))] != nil,
            comments: community.commentsOf(story.id))
        let record = detail ? CommunityRecords.story.detailRecord(row) : CommunityRecords.story.record(row)
        guard detail else { return .entity(Adoption.story, .opaque(String(story.id))) { record } }
        // The story screen's pictures, side by side.
        let pictures = story.pictures
        return .detail(Adoption.story, .opaque(String(story.id))) { record }
            .showing(
                Pictures(
                    .row,
                    pictures.map { picture in
                        { @Sendable session in
                            let community = session.state(AdoptionState.self)?.community
                            return .stored(community?.blobs.read(named: picture.name), picture.info, name: picture.name)
                        }
                    }))
    }

    static let add = CommandSpec(
        path: ["add", "story"],
        summary: "write an adoption story, with up to five pictures and a dog",
        keys: CommunityRecords.story.keys(.add) + CommunityRecords.story.keys(.restoring),
        examples: ["add story title=\"우리 콩이\" content=\"입양 1년\" image=kong.jpg dog=448548202400123"],
        run: { invocation in
            let state = try state(invocation)
            // Title and content: required (the binder saw to it), set by the story's schema.
            let draft = try CommunityRecords.story.draft(invocation)
            let dog = try dog(invocation)
            var pictures: [StoryPicture] = []
            if let argument = invocation.argument("image"), let text = invocation.text("image") {
                let paths = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                guard paths.count <= 5 else { throw Diagnostic.tooManyStoryImages(paths.count, at: argument.range) }
                var read: [(bytes: [UInt8], info: ImageInfo)] = []
                for path in paths { read.append(try invocation.readPicture(path, range: argument.range)) }
                for (bytes, info) in read {
                    var info = info
                    info.checksum = Checksum.crc32(bytes)
                    let picture = StoryPicture(id: invocation.ids.next(), info: info)
                    try state.community.blobs.write(bytes, named: picture.name)
                    pictures.append(picture)
                }
            }
            if let id = invocation.count("id"), state.community.stories[id] != nil {
                throw Diagnostic.exists("story", id, at: invocation.argument("id")?.range)
            }
            var row = CommunityRecords.StoryRow(
                story: Story(
                    id: try state.newID("story", invocation), author: try state.person(invocation, "author"),
                    title: "", content: "", dog: dog, pictures: pictures,
                    createdAt: invocation.date("created") ?? invocation.clock.now()),
                likes: 0, liked: false, comments: [])
            CommunityRecords.story.apply(draft, to: &row)
            let story = row.story
            state.community.stories.upsert(story)
            return outcome(state, story)
        })

    /// The desertion number `dog=` names, checked to be one; nil when not given.
    static func dog(_ invocation: Invocation) throws(Diagnostic) -> String? {
        guard let argument = invocation.argument("dog"), case .references(_, let keys) = argument.value else {
            return nil
        }
        let dog = keys.first?.text ?? ""
        guard !dog.isEmpty, dog.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw Diagnostic.notADesertionNumber(dog, at: argument.range)
        }
        return dog
    }

    static let edit = CommandSpec(
        path: ["edit", "story"],
        summary: "change my story's title, content or dog (only its author)",
        parameters: [Adoption.storyParameter],
        keys: CommunityRecords.story.keys(.edit),
        examples: ["edit story 3 title=\"우리 콩이, 1년\"", "edit story @1 content=\"입양 2년\" dog=448548202400123"],
        run: { invocation in
            let state = try state(invocation)
            let story = try story(state, try id(invocation), at: invocation.call.range)
            guard story.author == state.user() else {
                throw Diagnostic.onlyTheAuthor(
                    "story", author: story.author, doing: "change", at: invocation.call.range)
            }
            guard !invocation.arguments.isEmpty else { throw invocation.nothingToChange(besides: []) }
            let draft = try CommunityRecords.story.draft(invocation)
            var row = CommunityRecords.StoryRow(brief: story)
            CommunityRecords.story.apply(draft, to: &row)
            if let dog = try dog(invocation) { row.story.dog = dog }
            state.community.stories.upsert(row.story)
            return outcome(state, row.story)
        })

    static let list = CommandSpec(
        path: ["list", "stories"],
        summary: "list stories, newest first, by cursor (next continues)",
        keys: [
            KeySpec("limit", .count, "how many a page (default 10, at most 100)"),
            KeySpec("after", .text, "the cursor a page ended with"),
        ],
        examples: ["list stories", "list stories limit=5", "list 스토리 after=c3.1a2b3c"],
        pages: true,
        run: { invocation in
            let state = try state(invocation)
            let limit = invocation.count("limit") ?? 10
            guard (1...100).contains(limit) else { throw Diagnostic.badLimit(at: invocation.argument("limit")?.range) }
            var after: Int?
            if let text = invocation.text("after") {
                let range = invocation.argument("after")?.range
                guard let id = StoryCursor.read(text) else { throw Diagnostic.forgedCursor(text, at: range) }
                guard id <= state.community.last("story") else { throw Diagnostic.staleCursor(text, at: range) }
                after = id
            }
            return page(state, after: after, limit: limit, firstRow: 1)
        })

    static func page(_ state: AdoptionState, after: Int?, limit: Int, firstRow: Int) -> Outcome {
        let (stories, more) = state.community.page(after: after, limit: limit)
        let cursor = more ? stories.last.map { StoryCursor.make(after: $0.id) } : nil
        var continuation: (@Sendable (Invocation) throws -> Outcome)?
        if let last = stories.last?.id, more {
            let following = firstRow + stories.count
            continuation = { @Sendable invocation in
                Stories.page(try Stories.state(invocation), after: last, limit: limit, firstRow: following)
            }
        }
        let records = stories.map { story in
            CommunityRecords.record(
                story, likes: state.community.likeCount(story.id),
                liked: state.community.likes[LikeTable.key(of: Like(story: story.id, user: state.user()))] != nil,
                comments: state.community.commentsOf(story.id))
        }
        let listing = Outcome.listing(
            Adoption.story, stories.map { .opaque(String($0.id)) }, page: Page(firstRow: firstRow, next: continuation),
            cursor: ListingCursor(next: cursor)
        ) { records }
        guard stories.contains(where: { !$0.pictures.isEmpty }) else { return listing }
        // The feed's card picture: each story's first, read only when shown.
        return listing.showing(
            Pictures(
                .thumbnails,
                stories.map { story in
                    { @Sendable (session: Session) -> Picture in
                        guard let picture = story.pictures.first else { return Picture.none }
                        let community = session.state(AdoptionState.self)?.community
                        return .stored(community?.blobs.read(named: picture.name), picture.info, name: picture.name)
                    }
                }))
    }

    static let show = CommandSpec(
        path: ["show", "story"],
        summary: "show a story with its likes, whether I like it, and its comments",
        parameters: [Adoption.storyParameter],
        examples: ["show story 3", "show story @1"],
        run: { invocation in
            let state = try state(invocation)
            return outcome(state, try story(state, try id(invocation), at: invocation.call.range), detail: true)
        })

    static let like = CommandSpec(
        path: ["like", "story"],
        summary: "like a story (once per user)",
        parameters: [Adoption.storyParameter],
        keys: [KeySpec("user", .text, "restore a like by this user (what .dump writes)")],
        examples: ["like story 3", "like story @1"],
        run: { invocation in
            let state = try state(invocation)
            let story = try story(state, try id(invocation), at: invocation.call.range)
            let like = Like(story: story.id, user: try state.person(invocation, "user"))
            guard state.community.likes[LikeTable.key(of: like)] == nil else {
                throw Diagnostic.alreadyLiked(story.id, at: invocation.call.range)
            }
            state.community.add(like)
            return outcome(state, story)
        })

    static let unlike = CommandSpec(
        path: ["unlike", "story"],
        summary: "take back a like",
        parameters: [Adoption.storyParameter],
        examples: ["unlike story 3"],
        run: { invocation in
            let state = try state(invocation)
            let story = try story(state, try id(invocation), at: invocation.call.range)
            guard state.community.remove(Like(story: story.id, user: state.user())) else {
                throw Diagnostic.notLiked(story.id, at: invocation.call.range)
            }
            return outcome(state, story)
        })

    static let remove = CommandSpec(
        path: ["remove", "story"],
        summary: "remove my story (with its comments and likes)",
        parameters: [Adoption.storyParameter],
        examples: ["remove story 3"],
        run: { invocation in
            let state = try state(invocation)
            let story = try story(state, try id(invocation), at: invocation.call.range)
            guard story.author == state.user() else {
                throw Diagnostic.onlyTheAuthor("story", author: story.author, at: invocation.call.range)
            }
            state.community.remove(story: story)
            return .removed(Adoption.story, .opaque(String(story.id)))
        })
}
