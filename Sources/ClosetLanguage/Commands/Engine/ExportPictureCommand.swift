import ClosetCore

/// `export picture <ref> to=<file> [number=<n>]` and `export pictures to=<folder>`: an
/// entity's stored picture as its bytes (no re-encoding), for every pack whose entities show
/// pictures. The pictures are the ones its detail view or listing shows (`Pictures`): a row of
/// a listing that shows pictures, else what `show` of the entity shows. Nothing is written
/// unless every picture asked for can be.
enum ExportPictureCommand {
    static let one = CommandSpec(
        path: ["export", "picture"],
        summary: "write an entity's picture, as stored, to a file",
        parameters: [ParameterSpec("ref", .text, "@N of a listing, or a $variable bound by show or add")],
        keys: [
            KeySpec("to", .path(allowsNone: false), "the file to write", required: true, placeholder: "<file>"),
            KeySpec("number", .count, "which of its pictures, from 1 (a product's gallery, a story's pictures)"),
        ],
        examples: ["export picture @1 to=coat.jpg", "export picture $mini number=2 to=mini-2.png"],
        run: { invocation in
            guard let word = invocation.call.words.last, let argument = invocation.argument("to"),
                case .path(let path) = argument.value
            else { throw invocation.missing("to") }
            let session = invocation.session
            guard let (kind, key, row) = try References(session: session).entity(word) else {
                throw Diagnostic.pictureNeedsEntity(word.text, at: word.range)
            }
            let items = try pictures(of: kind, key, row: row, session, at: invocation.call.range)
            let number = invocation.count("number") ?? 1
            guard number >= 1, number <= items.count else {
                throw Diagnostic.noPicture(
                    kind, key, number: number, has: items.count, at: invocation.argument("number")?.range ?? word.range)
            }
            let picture = items[number - 1](session)
            if case .none = picture.source {
                throw Diagnostic.noPicture(kind, key, number: number, has: 0, at: word.range)
            }
            let bytes = try bytes(of: picture, "\(kind.singular) \(key.short)", at: word.range)
            try write(bytes, to: path, invocation, at: argument.range, creatingFolder: false)
            return .fields([
                Field("exported", .integer(1)), Field("to", .text(path)), Field("bytes", .integer(bytes.count)),
            ])
        })

    static let all = CommandSpec(
        path: ["export", "pictures"],
        summary: "write the last listing's pictures, as stored, into a folder",
        keys: [
            KeySpec(
                "to", .path(allowsNone: false), "the folder (made if missing)", required: true, placeholder: "<folder>")
        ],
        notes: ["Each file is named as the store or the server names the picture."],
        examples: ["export pictures to=saved-photos"],
        run: { invocation in
            guard let argument = invocation.argument("to"), case .path(let folder) = argument.value else {
                throw invocation.missing("to")
            }
            let session = invocation.session
            guard let listing = session.listings.last else {
                throw Diagnostic.nothingWithPictures(at: invocation.call.range)
            }
            // Every picture read first: nothing is written unless all of them can be.
            var files: [(name: String, bytes: [UInt8])] = []
            for (index, key) in listing.keys.enumerated() {
                let items = try pictures(of: listing.kind, key, row: index + 1, session, at: invocation.call.range)
                for (number, item) in items.enumerated() {
                    let picture = item(session)
                    if case .none = picture.source { continue }
                    let what = "\(listing.kind.singular) \(key.short)"
                    let bytes = try bytes(of: picture, what, at: invocation.call.range)
                    let name =
                        picture.name.map(FilePath.lastComponent(of:)).flatMap { $0.isEmpty ? nil : $0 }
                        ?? "\(listing.kind.singular)-\(key.short)-\(number + 1).\(bytes.starts(with: [0x89]) ? "png" : "jpg")"
                    files.append((name, bytes))
                }
            }
            if files.isEmpty { throw Diagnostic.nothingWithPictures(at: invocation.call.range) }
            for file in files {
                try write(
                    file.bytes, to: FilePath.join(folder, file.name), invocation, at: argument.range,
                    creatingFolder: true)
            }
            return .fields([Field("exported", .integer(files.count)), Field("to", .text(folder))])
        })

    /// The entity's pictures: its listing row's when the listing shows pictures, else what
    /// `show` of it shows.
    static func pictures(
        of kind: EntityKind, _ key: EntityKey, row: Int?, _ session: Session, at range: SourceRange
    ) throws -> [@Sendable (Session) -> Picture] {
        if let row, let listed = session.listings.pictures, row <= listed.count {
            // Loaded once (it may be fetched); a collage (a card of several) is exported as its parts.
            let picture = listed[row - 1](session)
            if case .collage(let parts) = picture.source { return parts.map { part in { _ in part } } }
            return [{ _ in picture }]
        }
        let show = CommandCall(
            words: [
                Word(text: "show", isQuoted: false, range: range),
                Word(text: kind.singular, isQuoted: false, range: range),
                Word(text: key.text, isQuoted: false, range: range),
            ], arguments: [], range: range)
        guard (try? session.registry.resolve(show.words)) != nil else { return [] }
        return try Evaluator(session: session).run(show).pictures?.items ?? []
    }

    static func bytes(of picture: Picture, _ what: String, at range: SourceRange) throws(Diagnostic) -> [UInt8] {
        switch picture.source {
        case .bytes(let bytes): return bytes
        case .unavailable(let reason): throw .pictureUnavailable("the picture of \(what)", because: reason, at: range)
        case .none: throw .pictureUnavailable("the picture of \(what)", because: "it has none", at: range)
        case .collage: throw .pictureUnavailable("the picture of \(what)", because: "it is a collage", at: range)
        }
    }

    static func write(
        _ bytes: [UInt8], to path: String, _ invocation: Invocation, at range: SourceRange, creatingFolder: Bool
    ) throws {
        do {
            try invocation.host.writeFile(at: path, bytes: bytes, creatingFolder: creatingFolder)
        } catch let error as Diagnostic {
            throw error.at(range)
        } catch {
            throw Diagnostic.cannotWrite(path, because: "\(error)", at: range)
        }
    }
}
