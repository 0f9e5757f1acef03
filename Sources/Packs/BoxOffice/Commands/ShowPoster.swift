import ClosetCore
import ClosetLanguage

/// `show poster <ref>`: the detail screen's poster: the first image the search finds for a
/// movie, or a poster `search posters` listed (`@2`), fetched through the two-tier cache
/// (`source` says which tier answered, or the network).
enum ShowPoster {
    static let spec = CommandSpec(
        path: ["show", "poster"],
        summary: "fetch a movie's poster through the image cache",
        parameters: [
            ParameterSpec(
                "ref", .reference(BoxOfficePack.poster, many: false, allowsNone: false, constraint: nil),
                "a poster (@N of search posters) or a movie (its KOBIS code, @N of list boxoffice, $variable)")
        ],
        examples: ["show poster @1", "show poster 20124079"],
        run: { invocation in
            let state = try invocation.state(BoxOfficeState.self)
            let url: String
            let code: String
            let title: String
            if let found = state.posterMovies[try invocation.referenceParameter().text] {
                url = try invocation.referenceParameter().text
                code = found
                title = try state.title(code, at: invocation.call.range)
            } else {
                code = try BoxOfficeCommands.code(invocation)
                title = try state.title(code, at: invocation.call.range)
                let keyword = MovieDetailsViewModel.posterKeyword(title)
                do {
                    url = try state.searcher.searchSingle(for: keyword)
                } catch is ImageURLSearchError {
                    throw Diagnostic.noPosterFound(keyword, at: invocation.call.range)
                }
            }
            let fetched: (image: PosterImage, source: ImageProvider.Source)
            do {
                fetched = try state.provider().fetchImage(from: url)
            } catch is ImageProviderError {
                throw Diagnostic.posterNotAnImage(url, at: invocation.call.range)
            }
            let info = fetched.image.info
            // A field a line, as a `show` gives one thing (a one-row table was hard to read).
            return .properties([
                Field("movie", .key(.opaque(code))), Field("title", .text(title)), Field("url", .text(url)),
                Field("format", .text(info?.format.rawValue ?? "")), Field("width", .integer(info?.width ?? 0)),
                Field("height", .integer(info?.height ?? 0)), Field("bytes", .integer(fetched.image.bytes.count)),
                Field("source", .text(fetched.source.rawValue)),
            ]).showing(Pictures(.single, [.bytes(fetched.image.bytes, name: FilePath.lastComponent(of: url))]))
        })
}
