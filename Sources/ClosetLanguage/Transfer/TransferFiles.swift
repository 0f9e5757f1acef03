import ClosetCore
import Foundation

/// The engine half of `export` and `import`, for any pack: JSON (one record object a line,
/// the same fields as JSON output) or CSV (RFC 4180, the record's data columns), chosen by the
/// file's extension. A pack names its fields and checks its rows; reading, writing, reporting
/// every bad row with its line, and all-or-nothing belong here.
public enum TransferFiles {
    /// A file an import reads whole (a named pipe, which cannot be read twice) is refused when
    /// larger than this. A file on disk is read a piece at a time, at any size.
    package static let maximumHeldImportBytes = 256 << 20
    /// How many bad rows an import lists before summing up the rest.
    static let listedBadRows = 20

    @usableFromInline package enum FileFormat: Sendable {
        case json, csv

        public init(_ path: String, range: SourceRange?) throws(Diagnostic) {
            switch FilePath.fileExtension(of: path).lowercased() {
            case "json": self = .json
            case "csv": self = .csv
            default: throw .transferExtension(path, at: range)
            }
        }
    }

    /// One row as field name → text (JSON values turned to text; null and empty are nil).
    public typealias Row = (line: Int, fields: RowFields)

    /// A bad row: its line and what is wrong with it; the row's number too when other rows
    /// start on the same line (JSON written on one line).
    public struct RowProblem: Error {
        public var line: Int
        public var message: String
        public var row: Int?

        public init(line: Int, message: String) {
            self.line = line
            self.message = message
        }

        /// `file:3: message`, or `file:1: row 4: message`.
        func text(in file: String) -> String {
            "\(file):\(line): " + (row.map { "row \($0): " } ?? "") + message
        }
    }

    /// `to=`, the file `export` writes; its extension picks the format.
    public static let toKey = KeySpec(
        "to", .path(allowsNone: false), "the file: .json or .csv", required: true, placeholder: "<file.json|file.csv>")

    /// `from=`, the file `import` reads.
    public static let fromKey = KeySpec(
        "from", .path(allowsNone: false), "the file: .json or .csv (as export writes them)", required: true,
        placeholder: "<file.json|file.csv>")

    /// `images=`, the folder of the pictures: where `export` copies them (created if missing),
    /// where `import` reads them (default: the file's folder).
    public static let imagesKey = KeySpec(
        "images", .path(allowsNone: false),
        "a folder for the pictures: export copies them there, import reads them from there (default: the file's folder)",
        placeholder: "<folder>")

    /// One picture an export copies: the file name the exported rows name, and its bytes
    /// (checked by the pack: a picture missing from the store fails the export).
    public typealias PictureFile = (name: String, bytes: [UInt8])

    /// Writes rows of a kind to `to=` (a pack's export of what its listing would show), and
    /// their pictures to `images=` when it is given.
    public static func export(
        _ kind: EntityKind, _ keys: [EntityKey], invocation: Invocation,
        pictures: () throws -> [PictureFile] = { [] }, _ records: @escaping @Sendable () -> [Record]
    ) throws -> Outcome {
        try export(
            Entities(kind: kind, keys: ListingKeys(keys), isListing: true, source: .many(records)), invocation,
            pictures: pictures)
    }

    /// Writes the entities to `to=` and reports `{"exported":N,"to":"file"}`; with `images=`,
    /// copies the pictures there first and reports `"pictures":N,"images":"folder"` too.
    public static func export(
        _ entities: Entities, _ invocation: Invocation, pictures: () throws -> [PictureFile] = { [] }
    ) throws -> Outcome {
        var copied: [Field] = []
        if let argument = invocation.argument("images"), case .path(let folder) = argument.value {
            let files = try pictures()
            for file in files {
                do {
                    try invocation.host.writeFile(
                        at: FilePath.join(folder, file.name), bytes: file.bytes, creatingFolder: true)
                } catch let error as Diagnostic {
                    throw error.at(argument.range)
                } catch {
                    throw Diagnostic.cannotWrite(
                        FilePath.join(folder, file.name), because: "\(error)", at: argument.range)
                }
            }
            copied = [Field("pictures", .integer(files.count)), Field("images", .text(folder))]
        }
        guard case .fields(let fields, _) = try export(entities, invocation) else { preconditionFailure() }
        return .fields(fields + copied)
    }

    /// Writes the entities to `to=` and reports `{"exported":N,"to":"file"}`.
    static func export(_ entities: Entities, _ invocation: Invocation) throws(Diagnostic) -> Outcome {
        try write(entities.kind, invocation) { sink in
            try entities.forEachRecord(parts: sink.writer.recordParts) { record in try sink.add { $0.add(record) } }
        }
    }

    /// Writes the models `each` visits to `to=` as they are visited, through their schema (only
    /// the JSON object or the csv values each needs), and reports `{"exported":N,"to":"file"}`:
    /// a pack that can walk its rows one at a time exports a whole table in memory that does not
    /// grow with it.
    /// Inlinable, so the schema's row functions are specialized for the pack's model (generic,
    /// they looked up the model's metadata for every field of every row).
    @inlinable public static func export<Model>(
        _ schema: EntitySchema<Model>, _ invocation: Invocation,
        each: (_ visit: (Model) throws -> Void) throws -> Void
    ) throws(Diagnostic) -> Outcome {
        try write(schema.kind, invocation) { sink in
            switch sink.writer.format {
            case .json: try each { model in try sink.add { $0.add(json: schema.jsonFields(model)) } }
            case .csv: try each { model in try sink.add { $0.add(data: schema.dataValues(model)) } }
            }
        }
    }

    /// Writes `to=` through an `ExportWriter`, whose full pieces `rows`' sink hands to the file
    /// as they fill.
    @usableFromInline static func write(
        _ kind: EntityKind, _ invocation: Invocation, rows: (ExportSink) throws -> Void
    ) throws(Diagnostic) -> Outcome {
        guard let argument = invocation.argument("to"), case .path(let path) = argument.value else {
            throw invocation.missing("to")
        }
        let format = try FileFormat(path, range: argument.range)
        var count = 0
        do {
            // Streamed: each row written as it is made, in pieces of about a megabyte.
            try invocation.host.writeFile(at: path, creatingFolder: false) { writePiece in
                try withoutActuallyEscaping(writePiece) { write in
                    let sink = ExportSink(ExportWriter(format: format, columns: kind.dataColumns), write: write)
                    try rows(sink)
                    try sink.finish()
                    count = sink.count
                }
            }
        } catch let error as Diagnostic {
            throw error.at(argument.range)
        } catch {
            throw .cannotWrite(path, because: "\(error)", at: argument.range)
        }
        return .fields([Field("exported", .integer(count)), Field("to", .text(path))])
    }

    /// Reads `from=` into rows of the given fields; a file that names a field the pack does not
    /// know fails before any row is checked, as does a JSON file that cannot be parsed (a CSV
    /// file's problem may be found as its rows are: `collectProblems` then throws it).
    /// `ignoring` names fields an export writes that an import does not read (a story's
    /// comments): their values may be lists.
    public static func readRows(
        _ invocation: Invocation, fieldNames: [String], entity: String, ignoring: Set<String> = []
    )
        throws(Diagnostic) -> (path: String, rows: ImportedRows)
    {
        guard let argument = invocation.argument("from"), case .path(let path) = argument.value else {
            throw invocation.missing("from")
        }
        let format = try FileFormat(path, range: argument.range)
        // Read a piece at a time: a JSON file's shape, then its rows; a CSV file's header, then
        // its rows as it is read. A deterministic session's rows wait for the whole file to be
        // checked (they draw on its ids and clock).
        let session = invocation.session
        do {
            let file = try invocation.host.openFile(at: path)
            switch format {
            case .csv:
                let checkFirst = session.isDeterministic || session.ids.mayRepeat
                return (path, try ImportedRows(csv: file, fieldNames: fieldNames, checkFirst: checkFirst))
            case .json: return (path, try ImportedRows(json: file, entity: entity, ignoring: ignoring))
            }
        } catch let problem as ImportFileProblem {
            throw fileProblem(problem, path: path, invocation)
        } catch {
            throw fileProblem(
                .cannotRead(error as? Diagnostic ?? .cannotRead(path, because: "\(error)")), path: path, invocation)
        }
    }

    /// What an imported file's problem fails the import with.
    static func fileProblem(_ problem: ImportFileProblem, path: String, _ invocation: Invocation) -> Diagnostic {
        let range = invocation.argument("from")?.range ?? invocation.call.range
        switch problem {
        case .syntax(let message, let line):
            return .unreadableImport(fileName(path), line: line, problem: message, at: range)
        case .notUTF8(let offset): return .notUTF8("'\(fileName(path))'", offset: offset, at: range)
        case .cannotRead(let diagnostic): return diagnostic.at(range)
        case .changedWhileRead(let row):
            return .unreadableImport(fileName(path), line: row.line, problem: row.message, at: range)
        }
    }

    /// Checks every row; if any is bad, lists them on the error stream and fails with nothing
    /// imported. Otherwise returns what each row became.
    public static func checkAll<Item>(
        _ rows: ImportedRows, path: String, fieldNames: [String], _ invocation: Invocation,
        check: (Row) throws(RowProblem) -> Item
    ) throws(Diagnostic) -> [Item] {
        var items: [Item] = []
        let problems: [RowProblem]
        do throws(ImportFileProblem) {
            problems = try collectProblems(rows, fieldNames: fieldNames) { row throws(RowProblem) in
                items.append(try check(row))
            }
        } catch {
            throw fileProblem(error, path: path, invocation)
        }
        try report(problems, path: path, invocation)
        return items
    }

    /// Runs `check` on each row, after refusing a field no one reads; the problems found, in
    /// the file's order. With `first`, the rows it picks are checked before the others: the
    /// file is read twice, the second time only when the first passed over a row. A problem
    /// with the file itself (one found as its rows were read) fails with it, whatever the rows.
    /// A CSV row comes with its arguments read by `binding` (`ImportedRows.forEachRow`).
    static func collectProblems(
        _ rows: ImportedRows, fieldNames: [String], first: ((Row) -> Bool)? = nil,
        binding: ImportedRows.RecordBinding? = nil, check: (Row) throws(RowProblem) -> Void
    ) throws(ImportFileProblem) -> [RowProblem] {
        var problems: [(index: Int, problem: RowProblem)] = []
        // A CSV file's rows share its header's names: they are looked at once.
        var namesChecked: [String] = []
        func run(_ number: Int, _ row: Row) {
            do throws(RowProblem) {
                if row.fields.keys != namesChecked {
                    // `comments.0.id`: a part of a list the importer reads, under a known field.
                    for key in row.fields.keys
                    where !fieldNames.contains(key) && !fieldNames.contains(String(key.prefix { $0 != "." })) {
                        throw RowProblem(line: row.line, message: unknownField(key, fieldNames))
                    }
                    namesChecked = row.fields.keys
                }
                try check(row)
            } catch {
                var problem = error
                if rows.sharesLine(number) { problem.row = number + 1 }
                problems.append((number, problem))
            }
        }
        do throws(ImportFileProblem) {
            if let first {
                var passedOver = 0
                try rows.forEachRow(binding: binding) { number, row in
                    if first(row) { run(number, row) } else { passedOver += 1 }
                }
                if passedOver > 0 {
                    try rows.forEachRow(binding: binding) { number, row in if !first(row) { run(number, row) } }
                }
            } else {
                try rows.forEachRow(binding: binding, run)
            }
        } catch {
            guard case .changedWhileRead(let problem) = error else { throw error }
            problems.append((rows.count, problem))
        }
        return problems.sorted { $0.index < $1.index }.map(\.problem)
    }

    /// Lists the bad rows on the error stream and fails the import; nothing when there are none.
    static func report(_ problems: [RowProblem], path: String, _ invocation: Invocation) throws(Diagnostic) {
        guard !problems.isEmpty else { return }
        let name = fileName(path)
        // The file's values are quoted in the messages: their terminal controls are shown, never sent.
        var report = problems.prefix(listedBadRows).map { TerminalText.visible($0.text(in: name)) + "\n" }.joined()
        if problems.count > listedBadRows {
            report += TerminalText.visible("\(name): ... and \(problems.count - listedBadRows) more bad rows") + "\n"
        }
        invocation.host.write(report, to: .standardError)
        throw .badRows(problems.count, in: name, at: invocation.argument("from")?.range)
    }

    /// A field's text; nil when absent or empty.
    public static func text(_ row: Row, _ key: String) -> String? {
        (row.fields[key] ?? nil).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The folder an import reads pictures from: `images=`, or the imported file's folder.
    public static func pictureFolder(_ invocation: Invocation, file path: String) -> String {
        if let argument = invocation.argument("images"), case .path(let folder) = argument.value { return folder }
        let parent = FilePath.parent(of: path)
        return parent.isEmpty ? "." : parent
    }

    /// The picture an export wrote for a row as `<base>.png` or `<base>.jpg` (by its id); nil
    /// when neither is there (`missingPicture` says so). A file that is there but is no picture
    /// is that file's problem.
    public static func picture(
        named base: String, in folder: String, row: Row, _ invocation: Invocation
    ) throws(RowProblem) -> (bytes: [UInt8], info: ImageInfo)? {
        for name in ["\(base).png", "\(base).jpg"] {
            do {
                return try invocation.readPicture(FilePath.join(folder, name), range: invocation.call.range)
            } catch  where error.id == "file.cannot-read" {
                continue
            } catch {
                throw RowProblem(line: row.line, message: error.message)
            }
        }
        return nil
    }

    /// The row's problem when `picture(named:)` found neither file.
    public static func missingPicture(_ base: String, in folder: String, row: Row) -> RowProblem {
        RowProblem(line: row.line, message: "no picture \(base).png or \(base).jpg in \(folder)")
    }

    /// A picture an imported row names, read and checked (PNG or JPEG) as `add` reads one;
    /// what is wrong with it becomes the row's problem.
    public static func readPicture(
        _ name: String, in folder: String, row: Row, _ invocation: Invocation
    ) throws(RowProblem) -> (bytes: [UInt8], info: ImageInfo) {
        guard let picture = try readPicture(name, in: folder, row: row, invocation, ifThere: false) else {
            throw RowProblem(line: row.line, message: "no picture \(name) in \(folder)")
        }
        return picture
    }

    /// As `readPicture`; with `ifThere`, nil when the file is not there (a picture exported
    /// without `images=`, which an entity can do without).
    public static func readPicture(
        _ name: String, in folder: String, row: Row, _ invocation: Invocation, ifThere: Bool
    ) throws(RowProblem) -> (bytes: [UInt8], info: ImageInfo)? {
        guard !name.contains("/"), name != "..", name != "." else {
            throw RowProblem(line: row.line, message: "'\(name)' is not a picture's file name")
        }
        do {
            return try invocation.readPicture(FilePath.join(folder, name), range: invocation.call.range)
        } catch  where ifThere && error.id == "file.cannot-read" {
            return nil
        } catch {
            throw RowProblem(line: row.line, message: error.message)
        }
    }

    /// The texts of a list field: a JSON list (`images.0`, `images.1`, ...) or, in csv, one
    /// text with its items separated by spaces (as export writes it).
    public static func list(_ row: Row, _ key: String) -> [String] {
        if let text = row.fields[key] ?? nil { return text.split(separator: " ").map(String.init) }
        var items: [String] = []
        while let item = row.fields["\(key).\(items.count)"] ?? nil { items.append(item) }
        return items
    }

    /// `{"imported":N,"from":"file"}`.
    public static func imported(_ count: Int, from path: String) -> Outcome {
        .fields([Field("imported", .integer(count)), Field("from", .text(path))])
    }

    /// A vocabulary field's term, with the binder's wording for an unknown one.
    public static func term<V: Vocabulary>(_ row: Row, _ key: String, _ type: V.Type, missing: String)
        throws(RowProblem) -> V
    {
        guard let text = row.fields[key] ?? nil else {
            throw RowProblem(line: row.line, message: "missing \(key) (\(missing))")
        }
        guard let parsed = V.named(text) else {
            let info = V.info
            let diagnostic = Diagnostic.unknown(
                info.name, text, at: nil, among: info.spellings,
                hint: "use one of \(info.terms.map(\.english).joined(separator: ", "))")
            throw RowProblem(
                line: row.line,
                message: diagnostic.message + (diagnostic.suggestion.map { "; did you mean '\($0)'?" } ?? ""))
        }
        return parsed
    }

    static func fileName(_ path: String) -> String { FilePath.lastComponent(of: path) }

    /// A JSON file's element as a row: an object, its members' values as text. (A JSON
    /// object names a field once, `JSONReader` sees to it: the names are made without looking.)
    static func jsonRow(_ value: JSONValue, line: Int, entity: String, ignoring: Set<String>) throws(RowProblem)
        -> Row
    {
        guard case .object(let members) = value else {
            throw RowProblem(line: line, message: "expected an object for each \(entity)")
        }
        var names: [String] = []
        var values: [String?] = []
        names.reserveCapacity(members.count)
        values.reserveCapacity(members.count)
        func add(_ name: String, _ value: String?) {
            names.append(name)
            values.append(value)
        }
        for (key, member) in members {
            switch member {
            case .string(let text), .number(let text): add(key, text)
            case .bool(let flag): add(key, flag ? "true" : "false")
            case .null: add(key, nil)
            case .object: add(key, "(object)")  // a nested value, such as a picture's facts
            case .array(let items):
                guard ignoring.contains(key) else {
                    throw RowProblem(line: line, message: "'\(key)' cannot be a list")
                }
                add(key, nil)
                // Items are kept by place, `images.0` or `comments.0.id`, for an importer
                // that reads lists (a product's pictures, the entities one row holds).
                for (index, item) in items.enumerated() {
                    switch item {
                    case .string(let text): add("\(key).\(index)", text)
                    case .object(let parts):
                        for (name, part) in parts {
                            if case .string(let text) = part { add("\(key).\(index).\(name)", text) }
                        }
                    default: continue
                    }
                }
            }
        }
        return (line, RowFields(names: names, values: values))
    }

    static func unknownField(_ name: String, _ fieldNames: [String]) -> String {
        var message = "unknown field '\(name)'"
        if let near = Suggestion.closest(to: name, among: fieldNames) { message += "; did you mean '\(near)'?" }
        return message + " (fields: \(fieldNames.joined(separator: ", ")))"
    }
}
