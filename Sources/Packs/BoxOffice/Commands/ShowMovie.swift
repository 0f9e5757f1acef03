import ClosetCore
import ClosetLanguage

/// `show movie <ref>`: the detail screen, with its poster when pictures are on.
enum ShowMovie {
    static let spec = CommandSpec(
        path: ["show", "movie"],
        summary: "show a movie's details from KOBIS",
        parameters: [BoxOfficePack.movieParameter],
        examples: ["show movie 20124079", "show movie @1", "show 영화 $top"],
        run: { invocation in
            let state = try invocation.state(BoxOfficeState.self)
            let code = try BoxOfficeCommands.code(invocation)
            let item = try state.details(code, at: invocation.call.range)
            let title = item.info.movieName
            // The detail screen's poster under its facts, searched and fetched only when shown.
            return .detail(BoxOfficePack.movie, .opaque(code)) { BoxOfficeRecords.movie.detailRecord(item) }
                .showing(Pictures(.single, [{ @Sendable session in ShowPoster.picture(of: title, session) }]))
        })
}

enum BoxOfficeCommands {
    /// The movie code the reference names, checked for its shape.
    static func code(_ invocation: Invocation) throws(Diagnostic) -> String {
        let code = try invocation.referenceParameter().text
        guard !code.isEmpty, code.count <= 20, code.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw .notAMovieCode(code, at: invocation.parameters.first?.range)
        }
        return code
    }
}
