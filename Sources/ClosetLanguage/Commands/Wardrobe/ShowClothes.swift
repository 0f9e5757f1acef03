/// `show clothes <ref>`: the app's detail screen.
enum ShowClothes {
    static let spec = CommandSpec(
        path: ["show", "clothes"],
        summary: "show one clothes",
        parameters: [WardrobePack.clothesReferenceParameter],
        examples: ["show clothes 3F2A", "show clothes $coat", "show clothes @1"],
        run: { .clothes(try $0.clothesParameter()) })
}
