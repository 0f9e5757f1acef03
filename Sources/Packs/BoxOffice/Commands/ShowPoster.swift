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
                url = try firstPosterURL(title, state, at: invocation.call.range)
            }
            let fetched = try fetch(url, state, at: invocation.call.range)
            let info = fetched.image.info
            // A field a line, as a `show` gives one thing (a one-row table was hard to read).
            return .properties([
                Field("movie", .key(.opaque(code))), Field("title", .text(title)), Field("url", .text(url)),
                Field("format", .text(info?.format.rawValue ?? "")), Field("width", .integer(info?.width ?? 0)),
                Field("height", .integer(info?.height ?? 0)), Field("bytes", .integer(fetched.image.bytes.count)),
                Field("source", .text(fetched.source.rawValue)),
            ]).showing(Pictures(.single, [.bytes(fetched.image.bytes, name: FilePath.lastComponent(of: url))]))
        })

    /// The first image the search finds for the movie's poster (the detail screen's).
    static func firstPosterURL(_ title: String, _ state: BoxOfficeState, at range: SourceRange?) throws -> String {
        let keyword = MovieDetailsViewModel.posterKeyword(title)
        do {
            return try state.searcher.searchSingle(for: keyword)
        } catch is ImageURLSearchError {
            throw Diagnostic.noPosterFound(keyword, at: range)
        }
    }

    /// A poster through the two-tier cache.
    static func fetch(_ url: String, _ state: BoxOfficeState, at range: SourceRange?) throws -> (
        image: PosterImage, source: ImageProvider.Source
    ) {
        do {
            return try state.provider().fetchImage(from: url)
        } catch is ImageProviderError {
            throw Diagnostic.posterNotAnImage(url, at: range)
        }
    }

    /// The movie's poster as its detail screen shows it, found and fetched only when shown; a
    /// poster that cannot be is a line saying why.
    static func picture(of title: String, _ session: Session) -> Picture {
        guard let state = session.state(BoxOfficeState.self) else {
            return Picture(.unavailable("the box office pack is not running"))
        }
        do {
            let url = try firstPosterURL(title, state, at: nil)
            return .bytes(try fetch(url, state, at: nil).image.bytes, name: FilePath.lastComponent(of: url))
        } catch let error as Diagnostic {
            return Picture(.unavailable(error.message))
        } catch let error as any LocalizedMessage {
            return Picture(.unavailable(error.message))
        } catch {
            return Picture(.unavailable("\(error)"))
        }
    }
}
