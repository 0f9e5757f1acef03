/// How statements give a field, declared on its schema line beside its output: the key `add`
/// and `edit` read (and `.dump` writes, so the two cannot drift apart), the kind of value and
/// its help, whether `add` needs it, whether `edit` may change it, and its name in the pack's
/// served API. The engine derives the commands' keys from it (`EntitySchema.keys`).
public struct FieldInput: Sendable {
    /// What `add` makes of the key.
    public enum Use: Int, Sendable, Comparable {
        /// Refused when left out (or given empty text).
        case required
        case optional
        /// Given only to make a row again as it was (`id=`, `created=`): what `.dump` writes.
        case restoring

        public static func < (a: Use, b: Use) -> Bool { a.rawValue < b.rawValue }
    }

    public var key: String
    public var kind: ValueKind
    public var summary: String
    public var use: Use
    /// How `edit` takes it, where its kind there differs (a count or `none` to clear it).
    public var editKind: ValueKind?
    public var editSummary: String?
    /// Whether `edit` may change it.
    public var isEditable: Bool
    /// Its name in the forms of the pack's served API (`descriptions`, `images[]`).
    public var api: String?
    /// What the app itself says when a required one is left out (`카테고리는 필수 항목입니다.`).
    public var whenMissing: String?
    /// What a whole number must be beyond a whole number (a donation's range and step).
    public var rule: WholeNumberRule?

    /// A key `add` needs; `edit` changes it too unless `editable` is false.
    public static func required(
        _ key: String, _ kind: ValueKind, _ summary: String, whenMissing: String? = nil, editable: Bool = true,
        api: String? = nil, rule: WholeNumberRule? = nil
    ) -> FieldInput {
        FieldInput(
            key: key, kind: kind, summary: summary, use: .required, isEditable: editable, api: api,
            whenMissing: whenMissing, rule: rule)
    }

    /// A key `add` may be given; `edit` takes it as `editKind` when that differs.
    public static func optional(
        _ key: String, _ kind: ValueKind, _ summary: String, editable: Bool = true, edit: ValueKind? = nil,
        editSummary: String? = nil, api: String? = nil
    ) -> FieldInput {
        FieldInput(
            key: key, kind: kind, summary: summary, use: .optional, editKind: edit, editSummary: editSummary,
            isEditable: editable, api: api)
    }

    /// A key only a dump gives `add` (`id=`, `registered=`); `edit` never changes it.
    public static func restoring(
        _ key: String, _ kind: ValueKind, _ summary: String, rule: WholeNumberRule? = nil
    ) -> FieldInput {
        FieldInput(key: key, kind: kind, summary: summary, use: .restoring, isEditable: false, rule: rule)
    }
}
