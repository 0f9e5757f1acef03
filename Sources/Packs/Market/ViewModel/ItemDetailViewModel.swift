/// The detail screen (reference §3.4 `ItemDetailViewModel`): `.update` with the item, or
/// `.error`; deleting with the password ends in `.delete`. The app emitted nothing for an
/// item without images (a quirk not copied).
public final class ItemDetailViewModel {
    public enum State: Equatable {
        case empty
        case update(Item)
        case delete
        case error(String)
    }

    public private(set) var state = State.empty
    private let id: Int
    private let repository: MarketRepository

    public init(id: Int, repository: MarketRepository) {
        self.id = id
        self.repository = repository
    }

    public func loadItem() throws -> Item {
        do {
            let item = try repository.item(id: id)
            state = .update(item)
            return item
        } catch {
            state = .error(OpenMarketUseCase.item.screenMessage(error))
            throw error
        }
    }

    public func deleteItem(password: String) throws -> Item {
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
