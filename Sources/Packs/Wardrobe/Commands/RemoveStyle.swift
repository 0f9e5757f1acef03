import ClosetCore
import ClosetLanguage
import Foundation

/// `remove style <ref>`: the app's delete; its clothes stay.
enum RemoveStyle {
    static let spec = CommandSpec(
        path: ["remove", "style"],
        summary: "remove a style (its clothes stay)",
        parameters: [Wardrobe.styleReferenceParameter],
        examples: ["remove style 9C1E"],
        run: { invocation in
            let state = try invocation.state(WardrobeState.self)
            let style = try state.style(invocation.referenceParameter())
            try state.styleViewModel.delete(style: style)
            return .removed(Wardrobe.style, .uuid(style.id))
        })
}
