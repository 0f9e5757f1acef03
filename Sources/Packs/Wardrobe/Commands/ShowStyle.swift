import ClosetCore
import ClosetLanguage
import Foundation

/// `show style <ref>`: a style with its clothes in category order, and the card's collage of
/// their pictures; they load through the image cache, as the app's style screen did.
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
            // The style card's collage: the first four clothes by category, two rows of two.
            for clothes in style.orderedClothes.prefix(4) {
                if let bytes = try state.loadImage(of: clothes), let image = clothes.image {
                    pictures.append(.bytes(bytes, name: image.blobName(owner: clothes.id)))
                }
            }
            return .detail(Wardrobe.style, .uuid(style.id)) { WardrobeRecords.style.detailRecord(style) }
                .showing(Pictures(.grid(columns: 2), pictures))
        })
}
