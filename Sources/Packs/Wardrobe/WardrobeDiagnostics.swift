import ClosetCore
import ClosetLanguage
import Foundation

/// The wardrobe's own messages, by id (`wardrobe.*`), in one place like the engine's.
extension Diagnostic {
    static func onlyClothesOfStyle(_ style: Style, others: Int, at range: SourceRange) -> Diagnostic {
        let more = others == 0 ? "" : " (and of \(others) other \(others == 1 ? "style" : "styles"))"
        let id = EntityKey.uuid(style.id).short
        let name = style.name.map { "'\($0)' (\(id))" } ?? id
        return Diagnostic(
            "wardrobe.only-clothes-of-style",
            "these are the only clothes of style \(name)\(more): put other clothes in it first (edit style \(id) top=...) or remove the style",
            at: range)
    }

    static func styleNeedsClothes(at range: SourceRange) -> Diagnostic {
        Diagnostic(
            "wardrobe.style-needs-clothes",
            "a style needs at least one clothes: add top=<ref>, clothes=<ref>,... or another slot", at: range)
    }

    static func nothingToChange(give keys: String, at range: SourceRange) -> Diagnostic {
        Diagnostic("wardrobe.nothing-to-change", "nothing to change: give \(keys)", at: range)
    }

    static func slotHoldsClothes(
        category: ClothesCategory, styleName: String, styleID: String, at range: SourceRange?
    ) -> Diagnostic {
        Diagnostic(
            "wardrobe.slot-holds-clothes",
            "this clothes is the \(category.englishName) of style \(styleName); empty that slot first (edit style \(styleID) \(category.englishName)=none)",
            at: range)
    }

    static func imageTakesPath(at range: SourceRange) -> Diagnostic {
        Diagnostic("wardrobe.image-value", "'image' takes a file path or none", at: range)
    }

    static func nothingToRemove(at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "wardrobe.image-none-on-add", "image=none removes a picture on edit; new clothes have none to remove",
            at: range)
    }

    static func idAlreadyUsed(_ id: UUID, at range: SourceRange?) -> Diagnostic {
        Diagnostic("wardrobe.id-used", "id '\(id.uuidString)' is already used", at: range)
    }

    static func pictureMissing(of clothes: Clothes) -> Diagnostic {
        Diagnostic(
            "wardrobe.picture-missing",
            "the picture of clothes \(EntityKey.uuid(clothes.id).short) is missing from the store (its file is gone)",
            at: nil)
    }

    static func pictureDamaged(of clothes: Clothes) -> Diagnostic {
        Diagnostic(
            "wardrobe.picture-damaged",
            "the picture of clothes \(EntityKey.uuid(clothes.id).short) is damaged (its bytes do not match their checksum)",
            at: nil)
    }

    static func noSuchEntity(_ kind: EntityKind, _ key: EntityKey) -> Diagnostic {
        Diagnostic("wardrobe.no-such-id", "no \(kind.singular) has id '\(key.text)'", at: nil)
    }
}
