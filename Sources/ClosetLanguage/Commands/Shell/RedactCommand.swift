import ClosetCore

/// `.redact [<field>...|off]`: results show the named fields as `[id]`, `[time]` or
/// `[<field>]` instead of their values, in every format (insta's redactions): for a golden
/// whose ids or times vary, and for sharing output. A field is named as JSON names it; the
/// table, CSV and detail cells that show the same value in that row are redacted with it.
enum RedactCommand {
    static let spec = DotCommandSpec(
        name: ".redact", summary: "show the named fields as [id], [time] or [field] in every result; off to stop",
        arguments: ["[<field>...|off]"], examples: [".redact id createdAt", ".redact off", ".redact"],
        run: { invocation in
            let session = invocation.session
            let words = invocation.call.arguments.map(\.text)
            guard !words.isEmpty else {
                let names = session.settings.redacted
                return .settings([("redact", names.isEmpty ? "off" : names.joined(separator: " "))])
            }
            if words == ["off"] {
                session.settings.redacted = []
            } else {
                for word in words where !session.settings.redacted.contains(word) {
                    session.settings.redacted.append(word)
                }
            }
            return .nothing
        })
}

/// What `.redact` makes of a result before it is rendered.
enum Redaction {
    static func apply(_ names: [String], to outcome: Outcome) -> Outcome {
        guard !names.isEmpty else { return outcome }
        let wanted = Set(names)
        switch outcome {
        case .entities(let entities):
            return .entities(entities.mappingRecords { redact($0, wanted) })
        case .fields(let fields, let pictures):
            return .fields(fields.map { redact($0, wanted) }, pictures: pictures)
        case .properties(let fields, let pictures):
            return .properties(fields.map { redact($0, wanted) }, pictures: pictures)
        case .count, .removed, .text, .settings, .table, .nothing:
            return outcome
        }
    }

    /// `[id]` for an id, `[time]` for an instant, else the field's name in brackets.
    static func placeholder(_ name: String, _ value: FieldValue) -> FieldValue {
        switch value {
        case .key: .text("[id]")
        case .date: .text("[time]")
        case .null: .null
        default: .text("[\(name)]")
        }
    }

    static func redact(_ field: Field, _ wanted: Set<String>) -> Field {
        if wanted.contains(field.name) { return Field(field.name, placeholder(field.name, field.value)) }
        if case .object(let members) = field.value {
            return Field(field.name, .object(members.map { redact($0, wanted) }))
        }
        return field
    }

    static func redact(_ record: Record, _ wanted: Set<String>) -> Record {
        // The values the record's redacted fields hold, and what each becomes.
        var replacements: [(value: FieldValue, with: FieldValue)] = []
        for field in record.fields where wanted.contains(field.name) && field.value != .null {
            replacements.append((field.value, placeholder(field.name, field.value)))
        }
        func cell(_ value: FieldValue) -> FieldValue {
            replacements.first { $0.value == value || $0.value.shownAs(value) }?.with ?? value
        }
        var redacted = record
        redacted.fields = record.fields.map { redact($0, wanted) }
        redacted.data = record.data.map(cell)
        redacted.table = record.table.map(cell)
        if var detail = record.detail {
            detail.lines = detail.lines.map { line in
                var line = line
                line.value = cell(line.value)
                return line
            }
            redacted.detail = detail
        }
        return redacted
    }
}

extension FieldValue {
    /// Whether `other` shows this value another way (a key as its text, a date as its text).
    func shownAs(_ other: FieldValue) -> Bool {
        switch (self, other) {
        case (.key(let key), .text(let text)): key.text == text || key.short == text
        case (.date(let date), .text(let text)): Timestamp.format(date) == text
        default: false
        }
    }
}
