import ClosetCore
import ClosetLanguage

/// `search posters <ref>`: "다른 포스터 찾기": every image the search finds for
/// "<title> 포스터".
enum SearchPosters {
    static let spec = CommandSpec(
        path: ["search", "posters"],
        summary: "search posters for a movie (\"<title> 포스터\"), every image found",
        parameters: [BoxOfficePack.movieParameter],
        examples: ["search posters @1", "search posters 20124079"],
        run: { invocation in
            let state = try invocation.state(BoxOfficeState.self)
            let code = try BoxOfficeCommands.code(invocation)
            let keyword = MovieDetailsViewModel.posterKeyword(try state.title(code, at: invocation.call.range))
            let documents = try state.searcher.search(for: keyword)
            guard !documents.isEmpty else { throw Diagnostic.noPosterFound(keyword, at: invocation.call.range) }
            for document in documents { state.posterMovies[document.imageURL] = code }
            return .listing(BoxOfficePack.poster, documents.map { .opaque($0.imageURL) }) {
                documents.map(BoxOfficeRecords.record)
            }
        })
}
