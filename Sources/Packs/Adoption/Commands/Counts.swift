import ClosetCore
import ClosetLanguage
import ClosetTables

/// `count dogs|stories|comments|donations`: how many `list` would give in all, without moving
/// a listing `next` is paging through.
enum Counts {
    /// The API's `totalCount` for the filters (the first page's request, as `list dogs` sends).
    static let dogs = CommandSpec(
        path: ["count", "dogs"],
        summary: "count the shelter animals the API has for these filters (its totalCount)",
        keys: ListDogs.filterKeys,
        examples: ["count dogs", "count dogs region=서울 kind=dog"],
        run: { invocation in
            let state = try invocation.state(AdoptionState.self)
            return .count(try state.fetch(try ListDogs.query(invocation, state)).totalCount)
        })

    static let stories = CommandSpec(
        path: ["count", "stories"],
        summary: "count the stories",
        examples: ["count stories"],
        run: { invocation in .count(try invocation.state(AdoptionState.self).community.stories.count) })

    static let comments = CommandSpec(
        path: ["count", "comments"],
        summary: "count the comments, or a story's",
        keys: [KeySpec("story", Comments.storyKey.kind, "only this story's")],
        examples: ["count comments", "count comments story=3"],
        run: { invocation in
            let state = try invocation.state(AdoptionState.self)
            guard invocation.argument("story") != nil else { return .count(state.community.comments.count) }
            let story = try Stories.story(
                state, try Comments.storyID(invocation), at: invocation.argument("story")?.range)
            return .count(state.community.commentsOf(story.id).count)
        })

    static let donations = CommandSpec(
        path: ["count", "donations"],
        summary: "count my donations (as list donations)",
        examples: ["count donations"],
        run: { invocation in
            let state = try invocation.state(AdoptionState.self)
            return .count(state.community.donations.rows.filter { $0.user == state.user() }.count)
        })
}
