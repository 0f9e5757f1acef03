import ClosetDomain
import Foundation

/// Binder: a resolved command's parameter words and `key=value` arguments → checked values.
/// Every unknown key, malformed value or bad reference is a diagnostic at that word; nothing
/// is evaluated until the whole statement binds.
struct ArgumentBinder {
    let session: Session

    func bind(_ spec: CommandSpec, words: [Word], call: CommandCall) throws(Diagnostic) -> Invocation {
        var parameters: [BoundArgument] = []
        for (index, word) in words.enumerated() {
            guard index < spec.parameters.count else {
                throw Diagnostic(
                    "unexpected '\(word.text)': '\(spec.name)' takes \(Self.describeParameters(spec))",
                    at: word.range)
            }
            let parameter = spec.parameters[index]
            let value = try convert([word], kind: parameter.kind, what: parameter.name)
            parameters.append(BoundArgument(key: parameter.name, value: value, range: word.range))
        }
        if parameters.count < spec.parameters.count {
            let missing = spec.parameters[parameters.count]
            throw Diagnostic(
                "'\(spec.name)' needs \(missing.summary)", at: words.last?.range ?? call.words.last?.range ?? call.range)
        }

        var arguments: [BoundArgument] = []
        for argument in call.arguments {
            let keyName = argument.key.text.lowercased()
            guard !argument.key.isQuoted, let key = spec.keys.first(where: { $0.name == keyName }) else {
                let known = spec.keys.map(\.name)
                throw Diagnostic.unknown(
                    "key", argument.key.text, at: argument.key.range, among: known,
                    hint: known.isEmpty ? "'\(spec.name)' takes no keys" : "'\(spec.name)' takes \(known.joined(separator: ", "))")
            }
            if !spec.keysRepeat, arguments.contains(where: { $0.key == key.name }) {
                throw Diagnostic("'\(key.name)' is given twice", at: argument.key.range)
            }
            let value = try convert(argument.values, kind: key.kind, what: key.name)
            arguments.append(BoundArgument(key: key.name, value: value, range: argument.range))
        }
        return Invocation(session: session, spec: spec, call: call, parameters: parameters, arguments: arguments)
    }

    static func describeParameters(_ spec: CommandSpec) -> String {
        spec.parameters.isEmpty
            ? "no words after its name, only key=value arguments"
            : spec.parameters.map(\.summary).joined(separator: ", ")
    }

    private func single(_ values: [Word], what: String) throws(Diagnostic) -> Word {
        guard values.count == 1 else {
            let range = values.dropFirst().reduce(values[values.count - 1].range) { $0.union($1.range) }
            throw Diagnostic("'\(what)' takes one value", at: range)
        }
        return values[0]
    }

    func convert(_ values: [Word], kind: ValueKind, what: String) throws(Diagnostic) -> ArgumentValue {
        switch kind {
        case .text:
            // Unquoted commas are part of text: description=red,white is "red,white".
            return .text(values.map(\.text).joined(separator: ","))
        case .category:
            return .categories([try vocabulary(single(values, what: what), ClothesCategory.self)])
        case .categories:
            var list: [ClothesCategory] = []
            for word in values { list.append(try vocabulary(word, ClothesCategory.self)) }
            return .categories(list)
        case .season:
            return .seasons([try vocabulary(single(values, what: what), WeatherType.self)])
        case .seasons:
            var list: [WeatherType] = []
            for word in values { list.append(try vocabulary(word, WeatherType.self)) }
            return .seasons(list)
        case .sort:
            return .sort(try vocabulary(single(values, what: what), SortBy.self))
        case .count:
            let word = try single(values, what: what)
            guard word.text.allSatisfy(\.isASCII), let number = Int(word.text), number >= 0 else {
                throw Diagnostic("'\(what)' takes a whole number ≥ 0, not '\(word.text)'", at: word.range)
            }
            return .count(number)
        case .size:
            let word = try single(values, what: what)
            guard let bytes = ByteSize.parse(word.text) else {
                throw Diagnostic("'\(word.text)' is not a size; write a whole number with B, KB, MB or GB, like 200MB", at: word.range)
            }
            return .size(bytes)
        case .date:
            let word = try single(values, what: what)
            guard let date = Timestamp.parse(word.text) else {
                throw Diagnostic("'\(word.text)' is not a date; write 2024-05-17 or 2024-05-17T09:30:00Z", at: word.range)
            }
            return .date(date)
        case .clothesRef(let slot, let allowsNone):
            let word = try single(values, what: what)
            if allowsNone, !word.isQuoted, word.text.lowercased() == "none" { return .none }
            let clothes = try session.references.clothes(word, expectOne: true)
            if let slot, let wrong = clothes.first(where: { $0.category != slot }) {
                throw Diagnostic(
                    "'\(word.text)' is \(article(wrong.category)) \(wrong.category.englishName), not \(article(slot)) \(slot.englishName)",
                    at: word.range)
            }
            return .clothes(clothes)
        case .clothesRefs:
            var list: [Clothes] = []
            for word in values { list += try session.references.clothes(word, expectOne: false) }
            return .clothes(list)
        case .styleRef:
            return .style(try session.references.style(single(values, what: what)))
        case .path(let allowsNone):
            let word = try single(values, what: what)
            if allowsNone, !word.isQuoted, word.text.lowercased() == "none" { return .none }
            return .path(word.text)
        case .newID:
            let word = try single(values, what: what)
            guard let id = UUID(uuidString: word.text) else {
                throw Diagnostic("'\(word.text)' is not a full id (a UUID like E220A839-7B1D-4DAF-AE78-9E6AA1B965F4)", at: word.range)
            }
            return .id(id)
        }
    }

    private func article(_ category: ClothesCategory) -> String {
        switch category {
        case .outer, .accessory: "an"
        case .top, .bottom: "a"
        case .shoes: "a pair of"
        }
    }

    private func vocabulary<V: Vocabulary>(_ word: Word, _ type: V.Type) throws(Diagnostic) -> V {
        if let value = V.named(word.text) { return value }
        let names = V.allCases.map(\.englishName)
        throw Diagnostic.unknown(
            V.vocabularyName, word.text, at: word.range,
            among: V.allCases.flatMap(\.spellings),
            hint: "use one of \(names.joined(separator: ", "))")
    }
}
