/// `show style <ref>`: a style with its clothes in category order; their pictures load
/// through the image cache, as the app's style screen did.
enum ShowStyle {
    static let spec = CommandSpec(
        path: ["show", "style"],
        summary: "show one style and its clothes",
        parameters: [WardrobePack.styleReferenceParameter],
        examples: ["show style 9C1E", "show style $fall"],
        run: { invocation in
            let style = try invocation.styleParameter()
            for clothes in style.orderedClothes { invocation.session.loadImage(of: clothes) }
            return .style(style)
        })
}
