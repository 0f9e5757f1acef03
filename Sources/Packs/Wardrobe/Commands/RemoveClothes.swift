import ClosetCore
import ClosetLanguage
import Foundation

/// `remove clothes <ref>`: the app's delete; every style slot holding it is emptied. The only
/// clothes of a style is refused: a style holds at least one (the seed app's fetch failed on a
/// style with none), and an empty style could not be edited at all.
enum RemoveClothes {
    static let spec = CommandSpec(
        path: ["remove", "clothes"],
        summary: "remove clothes (and empty the style slots that held it)",
        parameters: [Wardrobe.clothesReferenceParameter],
        examples: ["remove clothes 3F2A", "remove clothes @3"],
        run: { invocation in
            let state = try invocation.state(WardrobeState.self)
            let clothes = try state.clothes(invocation.referenceParameter())
            let held = state.store.stylesHeldOnlyBy(clothes: clothes.id)
            if let style = held.first {
                throw Diagnostic.onlyClothesOfStyle(style, others: held.count - 1, at: invocation.call.range)
            }
            try state.clothesViewModel.delete(clothes: clothes)
            return .removed(Wardrobe.clothes, .uuid(clothes.id))
        })
}
