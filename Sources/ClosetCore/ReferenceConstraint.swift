/// A condition on a referenced entity, checked by the pack that owns it: "its term of this
/// vocabulary has this code". The binder reports the pack's reason at the word.
public struct ReferenceConstraint: Sendable, Hashable {
    /// The vocabulary the condition is about (by name).
    public var vocabulary: String
    public var code: Int

    public init(vocabulary: String, code: Int) {
        self.vocabulary = vocabulary
        self.code = code
    }
}
