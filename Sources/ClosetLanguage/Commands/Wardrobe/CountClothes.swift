/// `count clothes`: how many rows `list clothes` would print with the same filters.
enum CountClothes {
    static let spec = CommandSpec(
        path: ["count", "clothes"],
        summary: "count clothes matching the filters",
        keys: WardrobePack.clothesFilterKeys,
        examples: ["count clothes", "count clothes season=fall category=top,bottom"],
        keysRepeat: true,
        run: { try .count(WardrobePack.filteredClothes($0).count) })
}
