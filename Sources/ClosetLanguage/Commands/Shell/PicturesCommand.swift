import ClosetCore

/// `.pictures [auto|kitty|iterm|sixel|blocks|off] [small|medium|full|<columns>]`: how pictures
/// are shown and how large; alone, prints both (with what `auto` is here).
enum PicturesCommand {
    static let spec = DotCommandSpec(
        name: ".pictures", summary: "how pictures are shown, and how large; alone, print both",
        arguments: ["[<how>]", "[<size>]"],
        choices: PictureMode.allCases.map(\.rawValue) + PictureSize.words,
        examples: [".pictures blocks", ".pictures small", ".pictures kitty full", ".pictures off", ".pictures"],
        run: { invocation in
            let session = invocation.session
            let words = invocation.call.arguments
            guard !words.isEmpty else { return .settings([("pictures", described(session))]) }
            guard words.count <= 2 else { throw Diagnostic.usage(invocation.spec.usage, at: words[2].range) }
            var mode: PictureMode?
            var size: PictureSize?
            for word in words {
                if mode == nil, let chosen = PictureMode(rawValue: word.text.lowercased()) {
                    mode = chosen
                } else if size == nil, let chosen = PictureSize(word.text) {
                    size = chosen
                } else {
                    let words = PictureMode.allCases.map(\.rawValue) + PictureSize.words
                    throw Diagnostic.unknown(
                        "picture setting", word.text, at: word.range, among: words,
                        hint:
                            "use auto, kitty, iterm, sixel, blocks or off, then small, medium, full or a width in cells (4 to 1000)"
                    )
                }
            }
            if let mode { session.settings.pictures = mode }
            if let size { session.settings.pictureSize = size }
            return .nothing
        })

    /// `blocks medium`, `auto (off here) medium`: how and how large, as `.pictures` and `.show`
    /// print it.
    static func described(_ session: Session) -> String {
        let mode = session.settings.pictures
        let how = mode == .auto ? "auto (\(session.output.shownPictures.rawValue) here)" : mode.rawValue
        return how + " " + session.settings.pictureSize.name
    }
}
