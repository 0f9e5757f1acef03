import ClosetCore
import ClosetLanguage
import Foundation

/// `show style <ref>`: a style with its clothes in category order; their pictures load
/// through the image cache, as the app's style screen did.
enum ShowStyle {
    static let spec = CommandSpec(
        path: ["show", "style"],
        summary: "show one style and its clothes",
        parameters: [Wardrobe.styleReferenceParameter],
        examples: ["show style 9C1E", "show style $fall"],
        run: { invocation in
            let state = try invocation.state(WardrobeState.self)
            let style = try state.style(invocation.referenceParameter())
            var pictures: [Picture] = []
            for clothes in style.orderedClothes {
                if let bytes = try state.loadImage(of: clothes), let image = clothes.image {
                    pictures.append(.bytes(bytes, name: image.blobName(owner: clothes.id)))
                }
            }
            // The app's collage: two across, in category order.
            return .detail(Wardrobe.style, .uuid(style.id)) { WardrobeRecords.style.detailRecord(style) }
                .showing(Pictures(.grid(columns: 2), pictures))
        })
}
