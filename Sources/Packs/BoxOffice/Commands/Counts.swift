import ClosetCore
import ClosetLanguage

/// `count boxoffice [date=]` and `count posters <ref>`: how many rows the listing would give.
enum Counts {
    static let ranking = CommandSpec(
        path: ["count", "boxoffice"],
        summary: "count a day's box office ranking (default yesterday)",
        keys: [KeySpec("date", .date, "the day, 2003-11-11 to yesterday (the app's calendar)")],
        examples: ["count boxoffice date=2012-01-01"],
        run: { invocation in
            let state = try invocation.state(BoxOfficeState.self)
            return .count(try state.daily(try ListBoxOffice.day(invocation, state)).count)
        })

    static let posters = CommandSpec(
        path: ["count", "posters"],
        summary: "count the posters the image search finds for a movie",
        parameters: [BoxOfficePack.movieParameter],
        examples: ["count posters 20124079"],
        run: { invocation in
            let state = try invocation.state(BoxOfficeState.self)
            let code = try BoxOfficeCommands.code(invocation)
            let keyword = MovieDetailsViewModel.posterKeyword(try state.title(code, at: invocation.call.range))
            return .count(try state.searcher.search(for: keyword).count)
        })
}
