import ClosetCore

/// The keys of an entity's commands, derived from its fields' `input`: what `add` and `edit`
/// read is what `.dump` writes, and help, completion and the binder's checks come with them.
extension EntitySchema {
    /// Which of a command's keys.
    public enum Keys: Sendable {
        /// What a person gives `add`: the required keys, then the optional ones.
        case add
        /// What only a dump gives `add` (`id=`, `registered=`): listed after a person's.
        case restoring
        /// What `edit` may change, none required.
        case edit
    }

    /// The keys, in the schema's input order. `whenMissing`: the app's own words for any required
    /// one left out (its alert), in place of each field's own.
    public func keys(_ which: Keys, whenMissing: String? = nil) -> [KeySpec] {
        inputs.compactMap { index in
            guard let input = fields[index].input else { return nil }
            var key = key(which, input, whenMissing: whenMissing)
            // The app's Korean label is the key in Korean, its words written as one.
            key?.korean = fields[index].korean.map { $0.filter { $0 != " " } }
            return key
        }
    }

    private func key(_ which: Keys, _ input: FieldInput, whenMissing: String?) -> KeySpec? {
        switch which {
        case .add:
            guard input.use != .restoring else { return nil }
            var key = KeySpec(input.key, input.kind, input.summary, required: input.use == .required)
            if input.use == .required { key.whenMissing = whenMissing ?? input.whenMissing }
            key.rule = input.rule
            return key
        case .restoring:
            guard input.use == .restoring else { return nil }
            var key = KeySpec(input.key, input.kind, input.summary, restores: true)
            key.rule = input.rule
            return key
        case .edit:
            guard input.isEditable else { return nil }
            var key = KeySpec(input.key, input.editKind ?? input.kind, input.editSummary ?? input.summary)
            if input.editKind == nil { key.rule = input.rule }
            return key
        }
    }

    /// Each field's name in the served API's forms, and the key it is (`descriptions` →
    /// `description`).
    public var apiNames: [(api: String, key: String)] {
        inputs.compactMap { index in
            guard let input = fields[index].input, let api = input.api else { return nil }
            return (api, input.key)
        }
    }
}
