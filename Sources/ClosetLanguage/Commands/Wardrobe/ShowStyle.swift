/// `show style <ref>`: a style with its clothes in category order.
enum ShowStyle {
    static let spec = CommandSpec(
        path: ["show", "style"],
        summary: "show one style and its clothes",
        parameters: [WardrobePack.styleReferenceParameter],
        examples: ["show style 9C1E", "show style $fall"],
        run: { .style(try $0.styleParameter()) })
}
