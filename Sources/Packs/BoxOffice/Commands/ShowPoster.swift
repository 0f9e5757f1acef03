import ClosetCore
import ClosetLanguage

/// `show poster <ref>`: the detail screen's poster: the first image the search finds,
/// fetched through the two-tier cache (`source` says which tier answered, or the network).
enum ShowPoster {
    static let spec = CommandSpec(
        path: ["show", "poster"],
        summary: "fetch a movie's poster through the image cache",
        parameters: [BoxOfficePack.movieParameter],
        examples: ["show poster @1", "show poster 20124079"],
        run: { invocation in
            let state = try invocation.state(BoxOfficeState.self)
            let code = try BoxOfficeCommands.code(invocation)
            let title = try state.title(code, at: invocation.call.range)
            let keyword = MovieDetailsViewModel.posterKeyword(title)
            let url: String
            do {
                url = try state.searcher.searchSingle(for: keyword)
            } catch is ImageURLSearchError {
                throw Diagnostic.noPosterFound(keyword, at: invocation.call.range)
            }
            let fetched: (image: PosterImage, source: ImageProvider.Source)
            do {
                fetched = try state.provider().fetchImage(from: url)
            } catch is ImageProviderError {
                throw Diagnostic.posterNotAnImage(url, at: invocation.call.range)
            }
            let info = fetched.image.info
            return .fields([
                Field("movie", .key(.opaque(code))), Field("title", .text(title)), Field("url", .text(url)),
                Field("format", .text(info?.format.rawValue ?? "")), Field("width", .integer(info?.width ?? 0)),
                Field("height", .integer(info?.height ?? 0)), Field("bytes", .integer(fetched.image.bytes.count)),
                Field("source", .text(fetched.source.rawValue)),
            ])
        })
}
