import ClosetCore
import ClosetLanguage
import Foundation

/// `remove clothes <ref>`: the app's delete; every style slot holding it is emptied.
enum RemoveClothes {
    static let spec = CommandSpec(
        path: ["remove", "clothes"],
        summary: "remove clothes (and empty the style slots that held it)",
        parameters: [Wardrobe.clothesReferenceParameter],
        examples: ["remove clothes 3F2A", "remove clothes @3"],
        run: { invocation in
            let state = try invocation.state(WardrobeState.self)
            let clothes = try state.clothes(invocation.referenceParameter())
            try state.clothesViewModel.delete(clothes: clothes)
            return .removed(Wardrobe.clothes, .uuid(clothes.id))
        })
}
