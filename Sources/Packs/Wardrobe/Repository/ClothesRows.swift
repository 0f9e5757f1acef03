/// Clothes a query found, each read when asked for: the answer of the store's index kept as
/// where each row lies (a listing of a whole wardrobe then holds four bytes a row, not the
/// clothes), or an array the view model made.
package struct ClothesRows: RandomAccessCollection, Sendable {
    private let read: @Sendable (Int) -> Clothes
    package let endIndex: Int
    package var startIndex: Int { 0 }
    /// False when the store knows none of them has a picture (it refers to no picture at all):
    /// a listing then need not read every row to find out.
    package let mayHavePictures: Bool

    package init(count: Int, mayHavePictures: Bool = true, read: @escaping @Sendable (Int) -> Clothes) {
        endIndex = count
        self.mayHavePictures = mayHavePictures
        self.read = read
    }

    package init(_ clothes: [Clothes]) {
        self.init(count: clothes.count, mayHavePictures: clothes.contains { $0.image != nil }) { clothes[$0] }
    }

    package subscript(position: Int) -> Clothes { read(position) }
}
