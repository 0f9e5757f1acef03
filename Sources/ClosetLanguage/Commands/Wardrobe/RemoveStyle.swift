/// `remove style <ref>`: the app's delete; its clothes stay.
enum RemoveStyle {
    static let spec = CommandSpec(
        path: ["remove", "style"],
        summary: "remove a style (its clothes stay)",
        parameters: [WardrobePack.styleReferenceParameter],
        examples: ["remove style 9C1E"],
        run: { invocation in
            let style = try invocation.styleParameter()
            try invocation.session.styleViewModel.delete(style: style)
            return .removed(style.id)
        })
}
