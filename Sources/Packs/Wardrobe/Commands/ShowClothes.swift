import ClosetCore
import ClosetLanguage
import Foundation

/// `show clothes <ref>`: the app's detail screen, which loads the picture through the
/// image cache.
enum ShowClothes {
    static let spec = CommandSpec(
        path: ["show", "clothes"],
        summary: "show one clothes",
        parameters: [Wardrobe.clothesReferenceParameter],
        examples: ["show clothes 3F2A", "show clothes $coat", "show clothes @1"],
        run: { invocation in
            let state = try invocation.state(WardrobeState.self)
            let clothes = try state.clothes(invocation.referenceParameter())
            let picture = try state.loadImage(of: clothes)
            return .detail(Wardrobe.clothes, .uuid(clothes.id)) { WardrobeRecords.clothes.detailRecord(clothes) }
                .showing(
                    Pictures(
                        .single, picture.map { [.bytes($0, name: clothes.image?.blobName(owner: clothes.id))] } ?? []))
        })
}
