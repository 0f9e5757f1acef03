/// What a field's whole number must be beyond `WholeNumber`'s one rule, declared on its input
/// (`FieldInput.rule`) and checked by the binder for every way in: a statement, an import row,
/// a served form. A range and a step (a donation: 1,000 to 1,000,000 in thousands), and a
/// prefix the number may be written with (a receipt, `R-000012`, as the app shows it).
public struct WholeNumberRule: Sendable, Hashable {
    public var range: ClosedRange<Int>
    public var step: Int
    /// Dropped before the digits are read (`R-` of `R-000012`); the digits alone are taken too.
    public var prefix: String?
    /// What a number outside it is not, and what it must be: `1500 is not a donation: whole won
    /// from 1,000 to 1,000,000, in thousands`.
    public var meaning: String
    public var requirement: String

    public init(
        _ range: ClosedRange<Int>, step: Int = 1, prefix: String? = nil, meaning: String, requirement: String
    ) {
        precondition(step > 0, "a step is at least 1")
        self.range = range
        self.step = step
        self.prefix = prefix
        self.meaning = meaning
        self.requirement = requirement
    }

    /// The text without its prefix, when it has one.
    public func digits(of text: String) -> Substring {
        guard let prefix, text.hasPrefix(prefix) else { return Substring(text) }
        return text.dropFirst(prefix.count)
    }

    public func admits(_ number: Int) -> Bool {
        range.contains(number) && (number - range.lowerBound) % step == 0
    }

    /// The one-line reason a number is refused.
    public func refusal(_ number: Int) -> String { "\(number) is not \(meaning): \(requirement)" }
}
