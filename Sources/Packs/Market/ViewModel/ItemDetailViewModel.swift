/// The detail screen (reference §3.4 `ItemDetailViewModel`): `.update` with the item, or
/// `.error`; deleting with the password ends in `.delete`. The app emitted nothing for an
/// item without images (a quirk not copied).
package final class ItemDetailViewModel {
    package enum State: Equatable {
        case empty
        case update(Item)
        case delete
        case error(String)
    }

    package private(set) var state = State.empty
    private let id: Int
    private let repository: MarketRepository

    package init(id: Int, repository: MarketRepository) {
        self.id = id
        self.repository = repository
    }

    package func loadItem() throws -> Item {
        do {
            let item = try repository.item(id: id)
            state = .update(item)
            return item
        } catch {
            state = .error(OpenMarketUseCase.item.screenMessage(error))
            throw error
        }
    }

    package func deleteItem(password: String) throws -> Item {
        do {
            let item = try repository.delete(id: id, password: password)
            state = .delete
            return item
        } catch {
            state = .error(OpenMarketUseCase.item.screenMessage(error))
            throw error
        }
    }
}
