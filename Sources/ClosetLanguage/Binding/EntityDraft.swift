import ClosetCore

/// What a statement gave for an entity's declared inputs, by input key (`title`, `stock`), each
/// value as its kind reads it: text, a whole number, a vocabulary term by its English name, null
/// for `none`. Read from the schema (`EntitySchema.draft`), so `add` and `edit`, a served form
/// and a client's form carry a field without naming it; a pack names a field only where it
/// stores it, or where a rule of its own needs it (a discount lower than the price).
public struct EntityDraft: Sendable {
    /// In the order given (the schema's input order, when read from a statement).
    public private(set) var values: [(key: String, value: FieldValue)] = []

    public init() {}

    /// The value given for `key` (`.null`: given as `none`); nil when not given.
    public subscript(key: String) -> FieldValue? {
        get { values.first { $0.key == key }?.value }
        set {
            let index = values.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let index?, let value?): values[index].value = value
            case (let index?, nil): values.remove(at: index)
            case (nil, let value?): values.append((key, value))
            case (nil, nil): break
            }
        }
    }

    public var isEmpty: Bool { values.isEmpty }

    public func text(_ key: String) -> String? {
        if case .text(let text)? = self[key] { text } else { nil }
    }

    public func integer(_ key: String) -> Int? {
        if case .integer(let number)? = self[key] { number } else { nil }
    }
}

extension EntitySchema {
    /// What the statement gives for this entity's `add` or `edit` keys (not those only a dump
    /// gives, nor pictures and references, which the pack reads itself). A required text given
    /// empty is missing, as one left out is.
    public func draft(_ invocation: Invocation) throws(Diagnostic) -> EntityDraft {
        var draft = EntityDraft()
        for input in inputFields {
            guard input.use != .restoring, let argument = invocation.argument(input.key) else { continue }
            switch input.kind {
            case .path, .paths, .reference: continue  // files and entities: the pack reads them itself
            case .text, .count, .size, .date, .newID, .vocabulary, .name: break
            }
            switch argument.value {
            case .text(let text):
                if text.isEmpty, input.use == .required { throw invocation.missing(input.key) }
                draft[input.key] = .text(text)
            case .count(let number), .size(let number):
                draft[input.key] = .integer(number)
            case .date(let date):
                draft[input.key] = .date(date)
            case .terms(_, let codes):
                guard case .vocabulary(let info, let many) = input.kind else { continue }
                let names = codes.compactMap { code in info.terms.first { $0.code == code }?.english }
                draft[input.key] = many ? .list(names.map(FieldValue.text)) : names.first.map(FieldValue.text) ?? .null
            case .none:
                draft[input.key] = .null
            case .references, .path, .id:
                continue
            }
        }
        return draft
    }

    /// The draft's values on `model`, each by the property its field declares (`set:`); a key
    /// not given leaves its property as it was. The model's own rules (a discount lower than
    /// the price) are the pack's, after this.
    public func apply(_ draft: EntityDraft, to model: inout Model) {
        for (place, input) in inputFields.enumerated() {
            guard let setter = inputSetters[place], let value = draft[input.key] else { continue }
            let fits = setter.set(value, on: &model)
            precondition(fits, "\(kind.singular).\(fields[inputs[place]].name): \(value) is not of the property's kind")
        }
    }

    /// A draft as the form of the pack's served API, by the names its fields declare there
    /// (`descriptions`, `discounted_price`), in the schema's input order: what a client posts,
    /// and what a served route reads back by `apiNames`. Null and pictures are not form text.
    public func apiForm(_ draft: EntityDraft) -> [(api: String, text: String)] {
        inputFields.compactMap { input in
            guard let api = input.api, let value = draft[input.key] else { return nil }
            switch value {
            case .text(let text): return (api, text)
            case .integer(let number): return (api, String(number))
            case .localized, .marked, .decimal, .bool, .date, .key, .null, .object, .list: return nil
            }
        }
    }
}
