/// `show clothes <ref>`: the app's detail screen, which loads the picture through the
/// image cache.
enum ShowClothes {
    static let spec = CommandSpec(
        path: ["show", "clothes"],
        summary: "show one clothes",
        parameters: [WardrobePack.clothesReferenceParameter],
        examples: ["show clothes 3F2A", "show clothes $coat", "show clothes @1"],
        run: { invocation in
            let clothes = try invocation.clothesParameter()
            invocation.session.loadImage(of: clothes)
            return .clothes(clothes)
        })
}
