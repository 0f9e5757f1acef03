import ClosetDomain
import Foundation

/// A checked value of a key or parameter.
public enum ArgumentValue: Sendable {
    case text(String)
    case categories([ClothesCategory])
    case seasons([WeatherType])
    case sort(SortBy)
    case count(Int)
    case size(Int)
    case date(Date)
    case clothes([Clothes])
    case style(Style)
    case path(String)
    case id(UUID)
    /// The word `none` where the key allows it (empty a slot, drop an image).
    case none
}

public struct BoundArgument: Sendable {
    public var key: String
    public var value: ArgumentValue
    public var range: SourceRange
}

/// A command call after binding: every key known and every value checked, refs resolved.
/// Handlers read it through the typed accessors and reach the session for everything else.
public struct Invocation {
    public let session: Session
    public let spec: CommandSpec
    public let call: CommandCall
    public let parameters: [BoundArgument]
    /// In the order written (filters apply in that order).
    public let arguments: [BoundArgument]

    public func argument(_ key: String) -> BoundArgument? { arguments.last { $0.key == key } }

    public func text(_ key: String) -> String? {
        if case .text(let text)? = argument(key)?.value { return text }
        return nil
    }

    public func category(_ key: String) -> ClothesCategory? {
        if case .categories(let list)? = argument(key)?.value { return list.first }
        return nil
    }

    public func season(_ key: String) -> WeatherType? {
        if case .seasons(let list)? = argument(key)?.value { return list.first }
        return nil
    }

    public func date(_ key: String) -> Date? {
        if case .date(let date)? = argument(key)?.value { return date }
        return nil
    }

    public func count(_ key: String) -> Int? {
        if case .count(let count)? = argument(key)?.value { return count }
        return nil
    }

    public func id(_ key: String) -> UUID? {
        if case .id(let id)? = argument(key)?.value { return id }
        return nil
    }

    public func size(_ key: String) -> Int? {
        if case .size(let size)? = argument(key)?.value { return size }
        return nil
    }

    /// The clothes named by the first parameter (the binder has already resolved it).
    public func clothesParameter() throws(Diagnostic) -> Clothes {
        guard let first = parameters.first, case .clothes(let list) = first.value, let clothes = list.first else {
            throw Diagnostic("'\(spec.name)' needs a clothes reference", at: call.range)
        }
        return clothes
    }

    /// The style named by the first parameter.
    public func styleParameter() throws(Diagnostic) -> Style {
        guard let first = parameters.first, case .style(let style) = first.value else {
            throw Diagnostic("'\(spec.name)' needs a style reference", at: call.range)
        }
        return style
    }
}

/// A dot command's call: its words, unchecked (each dot command reads its own).
public struct DotInvocation {
    public let session: Session
    public let spec: DotCommandSpec
    public let call: DotCall

    /// The one `on|off` word of `.echo`, `.bail`, `.timer`.
    public func onOff() throws -> Bool {
        guard call.arguments.count == 1 else {
            throw Diagnostic("usage: \(spec.usage)", at: call.arguments.dropFirst().first?.range ?? call.name.range)
        }
        let word = call.arguments[0]
        switch word.text.lowercased() {
        case "on", "1", "true", "yes": return true
        case "off", "0", "false", "no": return false
        default: throw Diagnostic.unknown("setting", word.text, at: word.range, among: ["on", "off"], hint: "use on or off")
        }
    }
}
