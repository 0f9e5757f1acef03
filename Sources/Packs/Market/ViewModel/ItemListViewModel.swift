/// The list screen (reference §3.4 `ItemListViewModel`): items appended page by page
/// through the list use case; `.refresh` when emptied, `.update(range)` for the rows a page
/// added, `.error` when a load fails.
package final class ItemListViewModel {
    package enum State: Equatable {
        case empty
        case refresh
        case update(Range<Int>)
        case error(String)
    }

    /// What loads a page: the list use case (`retrieveItems`), nil while one is loading.
    package typealias UseCase = () throws -> ItemList?

    package private(set) var state = State.empty
    package private(set) var items: [Item] = [] {
        didSet {
            if items.isEmpty {
                state = .refresh
            } else if items.count > oldValue.count {
                state = .update(oldValue.count..<items.count)
            }
        }
    }
    private let useCase: UseCase
    private let resetUseCase: () -> Void

    package init(useCase: @escaping UseCase, reset: @escaping () -> Void) {
        self.useCase = useCase
        resetUseCase = reset
    }

    /// Appends the next page; the page's rows, or nil while a load is under way.
    @discardableResult
    package func loadItems() throws -> Range<Int>? {
        do {
            guard let list = try useCase() else { return nil }
            let start = items.count
            items += list.items
            return start..<items.count
        } catch {
            state = .error(OpenMarketUseCase.itemList.screenMessage(error))
            throw error
        }
    }

    /// Pull to refresh: empty the list, start the use case over, load the first page.
    @discardableResult
    package func reset() throws -> Range<Int>? {
        items.removeAll()
        resetUseCase()
        return try loadItems()
    }
}

/// One list cell's labels (reference §3.4 `ItemListCellViewModel.MetaData`). The app's
/// inverted `isneededDiscountedLabel` is not copied: it is true when there is a discount,
/// as on the detail screen.
package struct ItemCellLabels: Equatable, Sendable {
    package enum Problem: Error, Equatable {
        /// "URL 주소 존재하지 않음": no thumbnail to show.
        case emptyPath
    }

    package var title: String
    package var price: String
    package var isPriceStruckThrough: Bool
    package var isNeededDiscountedLabel: Bool
    package var discountedPrice: String
    package var stock: String
    package var isSoldOut: Bool
    package var thumbnail: String

    package init(_ item: Item) throws(Problem) {
        guard let thumbnail = item.thumbnails.first else { throw .emptyPath }
        self.thumbnail = thumbnail
        title = item.title
        price = ItemLabels.price(item.price, currency: item.currency)
        isPriceStruckThrough = item.discountedPrice != nil
        isNeededDiscountedLabel = item.discountedPrice != nil
        discountedPrice = ItemLabels.discountedPrice(item)
        stock = ItemLabels.stock(item.stock)
        isSoldOut = item.stock == 0
    }
}
