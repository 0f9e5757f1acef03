import ClosetCore
import Foundation

/// Binder: a resolved command's parameter words and `key=value` arguments → checked values.
/// Every unknown key, malformed value or bad reference is a diagnostic at that word; nothing
/// is evaluated until the whole statement binds.
struct ArgumentBinder {
    let session: Session

    func bind(_ spec: CommandSpec, words: [Word], call: CommandCall) throws(Diagnostic) -> Invocation {
        // Read once: a command's keys are made on first use and reached through a lock.
        let keys = spec.keys
        let declared = spec.parameters
        var parameters: [BoundArgument] = []
        parameters.reserveCapacity(words.count)
        for (index, word) in words.enumerated() {
            guard index < declared.count else {
                // `cache limit posters`: the longer commands under this one are named too.
                let longer = session.registry.commands.filter {
                    $0.path.count == spec.path.count + 1 && Array($0.path.prefix(spec.path.count)) == spec.path
                }.map(\.name)
                throw .unexpectedWord(
                    word.text, command: spec.name, takes: Self.describeParameters(spec), longer: longer,
                    at: word.range)
            }
            let parameter = declared[index]
            let value = try convert([word], kind: parameter.kind, what: parameter.name)
            parameters.append(BoundArgument(key: parameter.name, value: value, range: word.range))
        }
        if parameters.count < declared.count {
            let missing = declared[parameters.count]
            throw .missingParameter(
                command: spec.name, needs: missing.summary,
                at: words.last?.range ?? call.words.last?.range ?? call.range)
        }

        // Sized once: growing it from empty was a tenth of binding a seed script's `add`.
        var arguments: [BoundArgument] = []
        arguments.reserveCapacity(call.arguments.count)
        for argument in call.arguments {
            let keyName = argument.key.text.lowercasedForMatching
            // The key by index: copying a whole `KeySpec` per argument was a tenth of binding.
            guard !argument.key.isQuoted, let keyIndex = keys.firstIndex(where: { $0.isNamed(keyName) }) else {
                let known = keys.map(\.name)
                throw Diagnostic.unknown(
                    "key", argument.key.text, at: argument.key.range, among: known,
                    hint: known.isEmpty
                        ? "'\(spec.name)' takes no keys" : "'\(spec.name)' takes \(known.joined(separator: ", "))")
            }
            let name = keys[keyIndex].name
            if !spec.keysRepeat, arguments.contains(where: { $0.key == name }) {
                throw .keyGivenTwice(name, at: argument.key.range)
            }
            if keys[keyIndex].isSecret, argument.values.count == 1, argument.values[0].text == "?",
                !argument.values[0].isQuoted
            {
                // `password=?`: asked for at the terminal, never typed into the statement.
                let prompt = keys[keyIndex].secretPrompt(korean: session.settings.language.isKorean)
                guard let secret = session.host.readSecret(prompt: prompt) else {
                    throw .secretNotAsked(name, at: argument.range)
                }
                arguments.append(
                    BoundArgument(key: name, value: .text(secret), range: argument.range, askedAtTerminal: true))
                continue
            }
            let value =
                if let rule = keys[keyIndex].rule {
                    try ruled(argument.values, rule, what: name, range: argument.range)
                } else {
                    try convert(argument.values, kind: keys[keyIndex].kind, what: name)
                }
            arguments.append(BoundArgument(key: name, value: value, range: argument.range))
        }
        // Every value is checked first, so a wrong value is named where it was written.
        // By index: a loop over the keys would copy each (this runs for every statement).
        // Every key left out is named at once; a secret left out is asked for when a person is
        // at the terminal (as psql asks), once nothing else is missing.
        var missing: [KeySpec] = []
        var secrets: [Int] = []
        for index in keys.indices where keys[index].isRequired {
            let given = arguments.firstIndex { $0.key == keys[index].name }
            if let given, !arguments[given].value.isEmptyText { continue }
            if given == nil, keys[index].isSecret {
                secrets.append(index)
            } else {
                missing.append(keys[index])
            }
        }
        if !missing.isEmpty { throw .missingKeys(missing, command: spec.name, at: call.range) }
        for index in secrets {
            let key = keys[index]
            guard
                let secret = session.host.readSecret(
                    prompt: key.secretPrompt(korean: session.settings.language.isKorean))
            else {
                throw .missingKey(key, command: spec.name, at: call.range)
            }
            arguments.append(
                BoundArgument(key: key.name, value: .text(secret), range: call.range, askedAtTerminal: true))
        }
        if !spec.needsOneOf.isEmpty, !arguments.contains(where: { spec.needsOneOf.contains($0.key) }) {
            throw .needsOneOf(
                spec.needsOneOf.compactMap { name in keys.first { $0.name == name } }, command: spec.name,
                at: call.range)
        }
        return Invocation(session: session, spec: spec, call: call, parameters: parameters, arguments: arguments)
    }

    /// A whole number by the one rule (`WholeNumber`), checked before any arithmetic.
    static func count(_ word: Word, what: String) throws(Diagnostic) -> Int {
        switch WholeNumber.parse(word.text) {
        case .success(let number): return number
        case .failure(.notANumber): throw .notACount(what, word.text, at: word.range)
        case .failure(.tooLarge): throw .countOutOfRange(what, word.text, at: word.range)
        }
    }

    /// A whole number its key's declared rule admits, written with the rule's prefix or without.
    private func ruled(_ values: [Word], _ rule: WholeNumberRule, what: String, range: SourceRange)
        throws(Diagnostic) -> ArgumentValue
    {
        var word = try single(values, what: what)
        word.text = String(rule.digits(of: word.text))
        let number = try Self.count(word, what: what)
        guard rule.admits(number) else { throw .refusedByRule(rule, number, at: range) }
        return .count(number)
    }

    static func describeParameters(_ spec: CommandSpec) -> String {
        spec.parameters.isEmpty
            ? "no words after its name, only key=value arguments"
            : spec.parameters.map(\.summary).joined(separator: ", ")
    }

    private func single(_ values: [Word], what: String) throws(Diagnostic) -> Word {
        guard values.count == 1 else {
            let range = values.dropFirst().reduce(values[values.count - 1].range) { $0.union($1.range) }
            throw .takesOneValue(what, at: range)
        }
        return values[0]
    }

    func convert(_ values: [Word], kind: ValueKind, what: String) throws(Diagnostic) -> ArgumentValue {
        switch kind {
        case .name:
            return .text(try single(values, what: what).text)
        case .text, .paths:
            // Unquoted commas are part of text: description=red,white is "red,white".
            return .text(values.count == 1 ? values[0].text : values.map(\.text).joined(separator: ","))
        case .vocabulary(let info, let many):
            if !many { return .terms(vocabulary: info.name, codes: [try term(single(values, what: what), info)]) }
            var codes: [Int] = []
            for word in values { codes.append(try term(word, info)) }
            return .terms(vocabulary: info.name, codes: codes)
        case .count:
            let word = try single(values, what: what)
            return .count(try Self.count(word, what: what))
        case .size:
            let word = try single(values, what: what)
            guard let bytes = ByteSize.parse(word.text) else {
                throw .notASize(word.text, at: word.range)
            }
            return .size(bytes)
        case .date:
            let word = try single(values, what: what)
            guard let date = Timestamp.parse(word.text) else {
                throw .notADate(word.text, at: word.range)
            }
            return .date(date)
        case .reference(let entity, let many, let allowsNone, let constraint):
            if !many {
                let word = try single(values, what: what)
                if allowsNone, !word.isQuoted, word.text.lowercased() == "none" { return .none }
                let keys = try session.references.resolve(word, kind: entity, expectOne: true)
                if let constraint { try check(constraint, keys, kind: entity, word: word) }
                return .references(entity, keys)
            }
            var keys: [EntityKey] = []
            for word in values {
                let found = try session.references.resolve(word, kind: entity, expectOne: false)
                if let constraint { try check(constraint, found, kind: entity, word: word) }
                keys += found
            }
            return .references(entity, keys)
        case .path(let allowsNone):
            let word = try single(values, what: what)
            if allowsNone, !word.isQuoted, word.text.lowercased() == "none" { return .none }
            return .path(word.text)
        case .newID:
            let word = try single(values, what: what)
            guard let id = UUID(text: word.text) else {
                throw .notAFullID(word.text, at: word.range)
            }
            return .id(id)
        }
    }

    /// The owning pack says why an entity does not fit (`is a bottom, not a top`).
    private func check(_ constraint: ReferenceConstraint, _ keys: [EntityKey], kind: EntityKind, word: Word)
        throws(Diagnostic)
    {
        guard let catalog = session.packs.catalog(for: kind) else { return }
        for key in keys {
            if let reason = catalog.violation(of: constraint, by: key, kind: kind) {
                throw .constraintNotMet(word.text, reason: reason, at: word.range)
            }
        }
    }

    private func term(_ word: Word, _ info: VocabularyInfo) throws(Diagnostic) -> Int {
        if let code = info.code(named: word.text) { return code }
        throw Diagnostic.unknown(
            info.name, word.text, at: word.range, among: info.spellings,
            hint: "use one of \(info.terms.map(\.english).joined(separator: ", "))")
    }
}

extension String {
    /// Lowercased for matching names; a name already in lowercase ASCII (nearly every one
    /// written) is returned as it is, without making a new string.
    var lowercasedForMatching: String {
        lowercasedQuickly
    }
}
