/// A list of names a pack fetches rather than declares (the animal API's 시군구, shelters and
/// breeds): a key taking one reads it as text, the pack resolves it, and completion offers the
/// names of that list the session has already seen (never a request of its own).
public struct NameList: Sendable, Hashable {
    /// Unique across packs: `adoption.district`.
    public var id: String
    /// How usage lines show the value: `<district>`.
    public var placeholder: String

    public init(_ id: String, placeholder: String) {
        self.id = id
        self.placeholder = placeholder
    }
}
