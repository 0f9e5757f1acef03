/// `remove clothes <ref>`: the app's delete; every style slot holding it is emptied.
enum RemoveClothes {
    static let spec = CommandSpec(
        path: ["remove", "clothes"],
        summary: "remove clothes (and empty the style slots that held it)",
        parameters: [WardrobePack.clothesReferenceParameter],
        examples: ["remove clothes 3F2A", "remove clothes @3"],
        run: { invocation in
            let clothes = try invocation.clothesParameter()
            try invocation.session.clothesViewModel.delete(clothes: clothes)
            return .removed(clothes.id)
        })
}
