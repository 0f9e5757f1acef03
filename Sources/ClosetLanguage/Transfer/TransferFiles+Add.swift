import ClosetCore
import ClosetTables

extension TransferFiles {
    /// An import that is the entity's own `add`, row by row: each field of the file that the
    /// schema declares an input for becomes that input's `key=value` argument (its JSON name to
    /// its key, as `.dump` writes it), and the command is run through the door a typed
    /// statement goes through (`Session.run`). So an import checks exactly what `add` checks,
    /// with no reader of its own to drift from it. Pictures are found as the engine's exports
    /// write them: the file names a `.paths` field lists, or `<id>.png`/`<id>.jpg` for a `.path`
    /// field (an optional one that is not beside a file imported without `images=` is left out,
    /// with a note). `supplied` arguments go to every row (a password hash made once); `command`
    /// is the entity's add where it is not `add <entity>` (`donate`). Rows that restore their key
    /// (`id=`, a donation's `receipt=`) run first, so an id drawn for another never takes one of theirs;
    /// every bad row is listed and nothing is kept if one is bad.
    public static func importThroughAdd<Model>(
        _ invocation: Invocation, schema: EntitySchema<Model>, ignoring: Set<String> = [],
        supplied: [(key: String, value: String)] = [], command: [String]? = nil
    ) throws(Diagnostic) -> Outcome {
        let kind = schema.kind
        let fieldNames = kind.fieldNames
        let (path, rows) = try readRows(invocation, fieldNames: fieldNames, entity: kind.singular, ignoring: ignoring)
        let folder = pictureFolder(invocation, file: path)
        let inputs = schema.inputs.compactMap { index in
            schema.fields[index].input.map { FileInput(field: schema.fields[index].name, $0) }
        }
        // The entity's key (its first field: a product's id, a donation's receipt), when a
        // row may restore it.
        let idField = inputs.first { $0.field == schema.fields.first?.name && $0.use == .restoring }?.field
        let restoresFirst: ((Row) -> Bool)? = idField.flatMap { field in
            rows.mayHave(field) ? { text($0, field) != nil } : nil
        }
        let session = invocation.session
        let command = command ?? ["add", kind.singular]
        let addCommand = session.registry.command(named: command.joined(separator: " "))
        let folderGiven = invocation.argument("images") != nil
        var leftOut = 0
        // Where each input's field is among a row's names, and whether parts of it are (`image.`),
        // found again only when the names change: a CSV file's rows share its header's.
        var names: [String]?
        var roomMade = false
        var places: [(value: Int?, nested: Bool)] = []
        // The quick binding's keys: those the import gives every row (`supplied`, their values
        // as bytes), then each input's.
        let argumentKeys = supplied.map(\.key) + inputs.map(\.key)
        let suppliedBytes = supplied.enumerated().map { place, argument in
            let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: argument.value.utf8.count)
            _ = bytes.initialize(from: argument.value.utf8)
            return (key: place, value: UnsafeBufferPointer(bytes))
        }
        defer { for argument in suppliedBytes { argument.value.deallocate() } }
        // A row's `add` as a request: its values as text, its pictures read from their files.
        func textRequest(_ row: Row) throws(RowProblem) -> CommandRequest {
            var request = CommandRequest(command, arguments: supplied)
            request.arguments.reserveCapacity(supplied.count + inputs.count)
            for (input, place) in zip(inputs, places) {
                let field = input.field
                switch input.value {
                case .pictures:
                    let names = list(row, field).map { $0.contains("://") ? FilePath.lastComponent(of: $0) : $0 }
                    guard !names.isEmpty else { continue }
                    var attached: [String] = []
                    for (number, name) in names.enumerated() {
                        // Without `images=`, an optional one not beside the file was exported without it.
                        let optional = input.use != .required && !folderGiven
                        guard let picture = try readPicture(name, in: folder, row: row, invocation, ifThere: optional)
                        else {
                            leftOut += 1
                            continue
                        }
                        // A comma would split the argument's list: such a file is named by its place.
                        let label = name.contains(",") ? "\(field) \(number + 1)" : name
                        request.attachments[label] = picture.bytes
                        attached.append(label)
                    }
                    if !attached.isEmpty { request.arguments.append((input.key, attached.joined(separator: ","))) }
                case .picture:
                    // An optional picture is looked for where the row says there is one.
                    let named =
                        (place.value.flatMap { row.fields.value(at: $0) }.map { !$0.isEmpty } ?? false) || place.nested
                    guard input.use == .required || named,
                        let id = idField.flatMap({ text(row, $0) }) ?? text(row, "id")
                    else { continue }
                    guard let picture = try self.picture(named: id, in: folder, row: row, invocation) else {
                        // Without `images=`, one not beside the file was exported without it.
                        if input.use == .required || folderGiven { throw missingPicture(id, in: folder, row: row) }
                        leftOut += 1
                        continue
                    }
                    request.attachments[id] = picture.bytes
                    request.arguments.append((input.key, id))
                case .text:
                    if let index = place.value, let value = row.fields.value(at: index), !value.isEmpty {
                        request.arguments.append((input.key, value))
                    }
                }
            }
            return request
        }
        // A CSV row's `add` bound from its file's bytes where they lie: nil for a JSON row, a
        // row naming a picture, or a value with a doubled quote (its text must be made). What
        // it reads of a row is found with `places`: each text input's field and argument, and
        // the fields that name a picture when not empty (`nil`: a row may need pictures read).
        var quickFields: QuickFields?
        var byteArguments: [(key: Int, value: UnsafeBufferPointer<UInt8>)] = []
        func quickInvocation(_ row: Row) -> Invocation? {
            guard let quickFields else { return nil }
            let invocation = row.fields.withFileBytes { file, fields -> Invocation? in
                defer { byteArguments.removeAll(keepingCapacity: true) }
                guard quickFields.arguments(file, fields, supplied: suppliedBytes, into: &byteArguments) else {
                    return nil
                }
                return RequestBinder.invocation(command, keys: argumentKeys, arguments: byteArguments, session: session)
            }
            return invocation ?? nil
        }
        func inputPlaces(in names: [String]) -> [(value: Int?, nested: Bool)] {
            inputs.map { input in (names.firstIndex(of: input.field), names.contains { $0.hasPrefix(input.nested) }) }
        }
        // A CSV file's rows read on the thread that reads it, a piece ahead of their adds (with
        // no arguments of the import's own: their bytes are not the file's).
        var binding: ImportedRows.RecordBinding?
        if session.quickBinding, supplied.isEmpty, let header = rows.header,
            let fields = Self.quickFields(inputs, inputPlaces(in: header), firstArgument: 0),
            let bytes = RequestBinder.byteBinding(
                command, keys: argumentKeys, given: fields.texts.map(\.argument), session: session)
        {
            binding = { file, row, read in
                var arguments: [(key: Int, value: UnsafeBufferPointer<UInt8>)] = []
                guard fields.arguments(file, row, supplied: [], into: &arguments) else { return nil }
                return bytes.read(arguments, into: &read)
            }
        }
        // One row's `add`; its problem, if any.
        func add(_ row: Row) throws(RowProblem) {
            if row.fields.keys != names {
                names = row.fields.keys
                places = inputPlaces(in: row.fields.keys)
                quickFields = Self.quickFields(inputs, places, firstArgument: supplied.count)
            }
            // A CSV row that names no picture is bound from its file's bytes (as it was read,
            // or now); the request is made only when that binding declines (and then says what
            // is wrong).
            let read = row.fields.read.flatMap { read in
                RequestBinder.invocation(command, read: read.arguments, length: read.length, session: session)
            }
            let quick = session.quickBinding ? read ?? quickInvocation(row) : nil
            let request = quick == nil ? try textRequest(row) : nil
            // Undone when it fails, so the rows after it are checked against the store as it was.
            let savepoint = session.store.savepoint()
            do throws(CommandFailure) {
                if let quick {
                    _ = try session.perform(quick)
                } else if let request {
                    _ = try session.run(request)
                }
                if !roomMade {
                    // The first row added: its tables make room for the others at once.
                    roomMade = true
                    session.store.tables.expectMoreRows(rows.expectedCount - 1)
                }
            } catch {
                session.store.rollback(to: savepoint)
                let field = error.key.flatMap { key in inputs.first { $0.key == key }?.field }
                if error.id == "binder.missing-key", let field {
                    let why = addCommand?.keys.first { $0.name == error.key }?.whenMissing.map { " (\($0))" } ?? ""
                    throw RowProblem(line: row.line, message: "missing \(field)\(why)")
                }
                // Named by the file's field unless the message names it (or its key) already.
                let names = [field, error.key].compactMap { $0 }
                let named = names.contains { error.message.contains($0) }
                let message = error.diagnostic.messageAndSuggestion
                throw RowProblem(line: row.line, message: (named ? "" : field.map { "\($0): " } ?? "") + message)
            }
        }
        // A problem with the file itself fails the import whatever its rows (they are undone).
        let problems: [RowProblem]
        do throws(ImportFileProblem) {
            problems = try collectProblems(
                rows, fieldNames: fieldNames, first: restoresFirst, binding: binding, check: add)
        } catch {
            throw fileProblem(error, path: path, invocation)
        }
        try report(problems, path: path, invocation)
        if leftOut > 0 {
            invocation.host.write(
                "note: \(leftOut) \(leftOut == 1 ? "picture the file names is" : "pictures the file names are") not beside '\(path)'; imported without (export \(kind.plural) images=<folder> copies them)\n",
                to: .standardError)
        }
        return imported(rows.count, from: path)
    }
}

/// What the quick binding reads of a CSV row: each text input's field and its argument's
/// place among the binding's keys, and the fields that name a picture when not empty.
private struct QuickFields: Sendable {
    let texts: [(field: Int, argument: Int)]
    let pictures: [Int]

    /// A row's arguments where its file's bytes lie, after the import's own (`supplied`): false
    /// when it names a picture, or a value has a doubled quote (its text must be made).
    func arguments(
        _ file: UnsafeBufferPointer<UInt8>, _ fields: [CSVReader.Field],
        supplied: [(key: Int, value: UnsafeBufferPointer<UInt8>)],
        into arguments: inout [(key: Int, value: UnsafeBufferPointer<UInt8>)]
    ) -> Bool {
        for field in pictures where !fields[field].isEmpty { return false }
        arguments.append(contentsOf: supplied)
        for (field, argument) in texts {
            let field = fields[field]
            guard !field.isEmpty else { continue }
            guard !field.hasDoubledQuotes else { return false }
            arguments.append((argument, UnsafeBufferPointer(rebasing: file[field.start..<field.end])))
        }
        return true
    }
}

extension TransferFiles {
    /// What the quick binding reads of a CSV row whose inputs are at `places` (each text input's
    /// argument among the binding's keys the inputs' after the import's own, from
    /// `firstArgument`); nil when a row may need pictures read (a required one, or parts of one).
    fileprivate static func quickFields(
        _ inputs: [FileInput], _ places: [(value: Int?, nested: Bool)], firstArgument: Int
    ) -> QuickFields? {
        var texts: [(field: Int, argument: Int)] = []
        var pictures: [Int] = []
        for (number, (input, place)) in zip(inputs, places).enumerated() {
            switch input.value {
            case .text:
                if let field = place.value { texts.append((field, firstArgument + number)) }
            case .picture, .pictures:
                guard input.use != .required, !place.nested else { return nil }
                if let field = place.value { pictures.append(field) }
            }
        }
        return QuickFields(texts: texts, pictures: pictures)
    }
}

/// A field of an imported file and the `add` key it becomes: read once, not per row (a copied
/// `FieldInput` retained its value kind's vocabulary for every field of every row). A class, so
/// a row's visit does not copy (and retain) each of its strings.
private final class FileInput {
    enum Value {
        /// Names of picture files (`.paths`).
        case pictures
        /// `<id>.png` or `<id>.jpg` (`.path`).
        case picture
        /// The field's text, as the statement would give it.
        case text
    }

    let field: String
    /// `image.`: the prefix of the parts of a JSON object under the field.
    let nested: String
    let key: String
    let use: FieldInput.Use
    let value: Value

    init(field: String, _ input: FieldInput) {
        self.field = field
        nested = field + "."
        key = input.key
        use = input.use
        value =
            switch input.kind {
            case .paths: .pictures
            case .path: .picture
            case .text, .count, .size, .date, .newID, .vocabulary, .reference, .name: .text
            }
    }
}

extension EntitySchema {
    /// What an import of this entity reads, for its help, from the fields that declare an input
    /// (by the names an export writes them under): `Fields: title, price and images (required),
    /// discountedPrice, registeredAt, id (kept if free).` A field only a dump gives is kept when
    /// free; `restoring` names the others, as `createdAt (kept)`.
    public var importFields: String {
        var required: [String] = []
        var others: [String] = []
        for index in inputs {
            guard let input = fields[index].input else { continue }
            let name = fields[index].name
            switch input.use {
            case .required: required.append(name)
            case .optional: others.append(name)
            // The entity's key (its first field) is kept when no row in the store has it.
            case .restoring: others.append(index == fields.startIndex ? name + " (kept if free)" : name)
            }
        }
        let listed =
            required.count > 1
            ? required.dropLast().joined(separator: ", ") + " and " + (required.last ?? "") : required.joined()
        return "Fields: " + ([listed + " (required)"] + others).joined(separator: ", ") + "."
    }
}
