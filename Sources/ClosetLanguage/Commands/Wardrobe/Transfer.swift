import ClosetDomain
import Foundation

/// `export` and `import`: clothes and styles to and from JSON (the SPEC §6 shapes) or CSV
/// (RFC 4180, header names as the JSON keys), chosen by the file's extension.
///
/// Import checks every row before changing anything and then adds them all in one statement
/// (so one transaction), or none: each bad row is reported with its line. Pictures are not
/// carried by JSON or CSV (only their size); `.dump --images` moves them.
enum TransferCommands {
    /// Files larger than this are refused rather than read into memory.
    static let maximumImportBytes = 256 << 20
    /// How many bad rows an import lists before summing up the rest.
    static let listedBadRows = 20

    enum FileFormat {
        case json, csv

        init(_ path: String, range: SourceRange?) throws(Diagnostic) {
            switch (path as NSString).pathExtension.lowercased() {
            case "json": self = .json
            case "csv": self = .csv
            default: throw Diagnostic("'\(path)' must end in .json or .csv (that picks the format)", at: range)
            }
        }
    }

    static let exportClothes = CommandSpec(
        path: ["export", "clothes"],
        summary: "write clothes (filtered like list clothes) to a .json or .csv file",
        keys: WardrobePack.clothesFilterKeys + [KeySpec("to", .path(allowsNone: false), "the file: .json or .csv", required: true)],
        examples: ["export clothes to=wardrobe.json", "export clothes season=winter to=winter.csv"],
        keysRepeat: true,
        run: { invocation in
            let clothes = try WardrobePack.filteredClothes(invocation)
            return try export(.clothesList(clothes), objects: clothes.map(JSONRenderer.object), invocation)
        })

    static let exportStyles = CommandSpec(
        path: ["export", "styles"],
        summary: "write styles to a .json or .csv file",
        keys: [
            KeySpec("season", .seasons, "keep these seasons (exact)"),
            KeySpec("sort", .sort, "by creation time (default new)"),
            KeySpec("to", .path(allowsNone: false), "the file: .json or .csv", required: true),
        ],
        examples: ["export styles to=styles.json"],
        keysRepeat: true,
        run: { invocation in
            let styles = try ListStyles.filteredStyles(invocation)
            return try export(.styles(styles), objects: styles.map(JSONRenderer.object), invocation)
        })

    static let importClothes = CommandSpec(
        path: ["import", "clothes"],
        summary: "add clothes from a .json or .csv file: every row or none",
        keys: [KeySpec("from", .path(allowsNone: false), "the file: .json or .csv (as export writes them)", required: true)],
        notes: [
            "Fields: category and season (required; English or Korean), description, createdAt, id (kept if given).",
            "Every row is checked first; one bad row and nothing is imported. Pictures are not imported.",
        ],
        examples: ["import clothes from=wardrobe.json", "import clothes from=sheet.csv"],
        run: run)

    /// An array with one object per line, so an import can name the line of a bad row.
    static func jsonLines(_ objects: [String]) -> String {
        objects.isEmpty ? "[]\n" : "[\n" + objects.joined(separator: ",\n") + "\n]\n"
    }

    /// Writes rows to `to=` as JSON objects (one a line) or CSV, by the file's extension.
    private static func export(_ rows: Outcome, objects: [String], _ invocation: Invocation) throws(Diagnostic) -> Outcome {
        let (path, format) = try destination(invocation)
        let text: String
        switch format {
        case .json: text = jsonLines(objects)
        case .csv: text = GridBuilder.grid(for: rows, format: .csv).map(CSVRenderer.render) ?? ""
        }
        try write(text, to: path, invocation)
        return .transferred(Transfer(direction: .exported, count: objects.count, path: path))
    }

    private static func destination(_ invocation: Invocation) throws(Diagnostic) -> (String, FileFormat) {
        guard let argument = invocation.argument("to"), case .path(let path) = argument.value else {
            throw Diagnostic("'\(invocation.spec.name)' needs to=<file.json|file.csv>", at: invocation.call.range)
        }
        return (path, try FileFormat(path, range: argument.range))
    }

    private static func write(_ text: String, to path: String, _ invocation: Invocation) throws(Diagnostic) {
        do {
            try invocation.session.host.writeFile(at: path, bytes: Array(text.utf8))
        } catch let error as Diagnostic {
            throw Diagnostic(error.message, at: invocation.argument("to")?.range)
        } catch {
            throw Diagnostic("cannot write '\(path)': \(error)", at: invocation.argument("to")?.range)
        }
    }

    /// One row as field name → text (JSON values turned to text; null and absent are nil).
    typealias Row = (line: Int, fields: [String: String?])

    static let fieldNames = ["id", "createdAt", "category", "season", "description", "image"]

    static func run(_ invocation: Invocation) throws -> Outcome {
        let session = invocation.session
        guard let argument = invocation.argument("from"), case .path(let path) = argument.value else {
            throw Diagnostic("'import clothes' needs from=<file.json|file.csv>", at: invocation.call.range)
        }
        let format = try FileFormat(path, range: argument.range)
        let bytes: [UInt8]
        do {
            bytes = try session.host.readFile(at: path, limit: maximumImportBytes)
        } catch let error as Diagnostic {
            throw Diagnostic(error.message, at: argument.range)
        }
        let name = (path as NSString).lastPathComponent
        let rows: [Row]
        do {
            rows = try parse(String(decoding: bytes, as: UTF8.self), format)
        } catch {
            throw Diagnostic("\(name):\(error.line): \(error.message); nothing was imported", at: argument.range)
        }

        var problems: [RowProblem] = []
        var clothes: [Clothes] = []
        var seen = Set<UUID>()
        var pictures = 0
        for row in rows {
            do {
                let item = try check(row, session: session, seen: &seen)
                if let image = row.fields["image"] ?? nil, !image.isEmpty { pictures += 1 }
                clothes.append(item)
            } catch {
                problems.append(error)
            }
        }
        if !problems.isEmpty {
            var report = problems.prefix(listedBadRows).map { "\(name):\($0.line): \($0.message)\n" }.joined()
            if problems.count > listedBadRows { report += "\(name): ... and \(problems.count - listedBadRows) more bad rows\n" }
            session.host.write(report, to: .standardError)
            throw Diagnostic(
                "\(problems.count) bad row\(problems.count == 1 ? "" : "s") in '\(name)'; nothing was imported",
                at: argument.range)
        }
        let viewModel = ClothesDetailViewModel(clothes: nil, repository: session.store)
        for item in clothes { try viewModel.save(clothes: item) }
        if pictures > 0 {
            session.host.write(
                "note: \(pictures) row\(pictures == 1 ? " names a picture" : "s name pictures"); pictures are not imported (move them with .dump --images)\n",
                to: .standardError)
        }
        return .transferred(Transfer(direction: .imported, count: clothes.count, path: path))
    }

    struct RowProblem: Error {
        var line: Int
        var message: String
    }

    static func parse(_ text: String, _ format: FileFormat) throws(RowProblem) -> [Row] {
        switch format {
        case .json:
            let values: [(line: Int, value: JSONValue)]
            do {
                values = try JSONReader.rows(text)
            } catch {
                throw RowProblem(line: error.line, message: error.message)
            }
            var rows: [Row] = []
            for (line, value) in values {
                guard case .object(let members) = value else { throw RowProblem(line: line, message: "expected an object for each clothes") }
                var fields: [String: String?] = [:]
                for (key, member) in members {
                    switch member {
                    case .string(let text), .number(let text): fields[key] = .some(text)
                    case .bool(let flag): fields[key] = .some(flag ? "true" : "false")
                    case .null: fields[key] = .some(nil)
                    case .object: fields[key] = .some("(picture)")  // an image object
                    case .array: throw RowProblem(line: line, message: "'\(key)' cannot be a list")
                    }
                }
                rows.append((line, fields))
            }
            return rows
        case .csv:
            let records: [(line: Int, fields: [String])]
            do {
                records = try CSVReader.records(text)
            } catch {
                throw RowProblem(line: error.line, message: error.message)
            }
            guard let header = records.first else { return [] }
            for name in header.fields where !fieldNames.contains(name) {
                throw RowProblem(line: header.line, message: unknownField(name))
            }
            return try records.dropFirst().map { record throws(RowProblem) in
                guard record.fields.count == header.fields.count else {
                    throw RowProblem(line: record.line, message: "\(record.fields.count) fields where the header has \(header.fields.count)")
                }
                var fields: [String: String?] = [:]
                for (name, value) in zip(header.fields, record.fields) { fields[name] = value.isEmpty ? .some(nil) : .some(value) }
                return (record.line, fields)
            }
        }
    }

    static func unknownField(_ name: String) -> String {
        var message = "unknown field '\(name)'"
        if let near = Suggestion.closest(to: name, among: fieldNames) { message += "; did you mean '\(near)'?" }
        return message + " (fields: \(fieldNames.joined(separator: ", ")))"
    }

    private static func check(_ row: Row, session: Session, seen: inout Set<UUID>) throws(RowProblem) -> Clothes {
        let line = row.line
        for key in row.fields.keys where !fieldNames.contains(key) { throw RowProblem(line: line, message: unknownField(key)) }
        func value<V: Vocabulary>(_ key: String, _ type: V.Type, required: ClothesDetailViewModel.ValidationError) throws(RowProblem) -> V {
            guard let text = row.fields[key] ?? nil else {
                throw RowProblem(line: line, message: "missing \(key) (\(required.message))")
            }
            guard let parsed = V.named(text) else {
                let diagnostic = Diagnostic.unknown(V.vocabularyName, text, at: nil, among: V.allCases.flatMap(\.spellings),
                    hint: "use one of \(V.allCases.map(\.englishName).joined(separator: ", "))")
                throw RowProblem(line: line, message: diagnostic.message + (diagnostic.suggestion.map { "; did you mean '\($0)'?" } ?? ""))
            }
            return parsed
        }
        let category = try value("category", ClothesCategory.self, required: .missingCategory)
        let season = try value("season", WeatherType.self, required: .missingWeather)
        var id = session.ids.next
        if let text = row.fields["id"] ?? nil {
            guard let given = UUID(uuidString: text) else { throw RowProblem(line: line, message: "'\(text)' is not a full id") }
            guard seen.insert(given).inserted else { throw RowProblem(line: line, message: "id \(given.uuidString) appears twice in the file") }
            guard session.store.clothes(withID: given) == nil else {
                throw RowProblem(line: line, message: "id \(given.uuidString) is already in the store")
            }
            id = { given }
        }
        var created = session.clock.now
        if let text = row.fields["createdAt"] ?? nil {
            guard let date = Timestamp.parse(text) else {
                throw RowProblem(line: line, message: "'\(text)' is not a date; write 2024-05-17 or 2024-05-17T09:30:00Z")
            }
            created = { date }
        }
        return Clothes(
            id: id(), createdAt: created(), category: category, weatherType: season,
            descriptions: (row.fields["description"] ?? nil) ?? "")
    }
}
