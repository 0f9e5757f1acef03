import ClosetCore

/// A `key=value` a command accepts.
public struct KeySpec: Sendable, Hashable {
    public var name: String
    public var kind: ValueKind
    public var summary: String
    /// Refused by the binder when left out, with one engine diagnostic for every pack.
    package var isRequired: Bool
    /// What the app itself says when the value is missing (`카테고리는 필수 항목입니다.`),
    /// added to the diagnostic.
    public var whenMissing: String?
    /// A secret (a password): its value is masked in the echo, error listings and history.
    public var isSecret: Bool
    /// How the app asks for this secret, in Korean (`비밀번호 입력`): the terminal's prompt under
    /// `.lang ko` (else the key's name).
    public var koreanPrompt: String?
    /// Given only to make a row again as it was (`id=`, `created=`, `hash=`: what `.dump`
    /// writes): a statement with one restores what closet kept, and takes its picture as kept.
    public var restores = false
    /// What a whole number must be beyond a whole number, checked by the binder.
    public var rule: WholeNumberRule?
    /// The key in Korean, as the app labels the field (`계절`, `제품명`; a label of two words
    /// written as one, `옷종류`): the binder takes it as this key.
    public var korean: String?

    /// The prompt a secret left out is asked for with, in the session's language.
    package func secretPrompt(korean: Bool) -> String { (korean ? koreanPrompt ?? name : name) + ": " }

    /// Whether a statement's key (already lowercased) names this one.
    func isNamed(_ word: String) -> Bool { name == word || korean == word }
    /// How usage, help and diagnostics write its value, when the kind's own placeholder says
    /// too little (`<path>[,<path>...]` for a text the command splits).
    public var placeholder: String { givenPlaceholder ?? kind.placeholder }
    /// Made when asked for: a vocabulary's placeholder lists its terms, and every key of every
    /// pack is made at start-up.
    private var givenPlaceholder: String?

    public init(
        _ name: String, _ kind: ValueKind, _ summary: String, required: Bool = false, whenMissing: String? = nil,
        secret: Bool = false, placeholder: String? = nil, restores: Bool = false, korean: String? = nil
    ) {
        self.restores = restores
        self.korean = korean
        self.isSecret = secret
        self.name = name
        self.kind = kind
        self.summary = summary
        self.isRequired = required
        self.whenMissing = whenMissing
        givenPlaceholder = placeholder
    }

    /// The same key, required or not: `add` and `edit` share their keys, and only `add`
    /// needs them all.
    public func required(_ required: Bool) -> KeySpec {
        var key = self
        key.isRequired = required
        return key
    }
}
