import ClosetCore

/// The keys of a statement's entities, by row: held as an array, or made when asked for by
/// the listing that reads its rows as they are written (a listing of a million rows then holds
/// no million keys; `@N` asks for one).
public struct ListingKeys: RandomAccessCollection, Sendable, ExpressibleByArrayLiteral {
    private enum Storage: Sendable {
        /// One entity's key (`add`, `show`): no array made for it.
        case one(EntityKey)
        case array([EntityKey])
        case made(@Sendable (Int) -> EntityKey)
    }
    private let storage: Storage
    public let endIndex: Int
    public var startIndex: Int { 0 }

    public init(_ keys: [EntityKey]) {
        storage = .array(keys)
        endIndex = keys.count
    }

    /// One entity's key.
    public init(one key: EntityKey) {
        storage = .one(key)
        endIndex = 1
    }

    /// The keys as an array, when they are held (not made as asked for).
    private var array: [EntityKey]? {
        switch storage {
        case .one(let key): [key]
        case .array(let keys): keys
        case .made: nil
        }
    }

    /// `count` keys, row `N`'s made by `key(N)` whenever it is asked for.
    public init(count: Int, key: @escaping @Sendable (Int) -> EntityKey) {
        storage = .made(key)
        endIndex = count
    }

    public init(arrayLiteral keys: EntityKey...) { self.init(keys) }

    public subscript(position: Int) -> EntityKey {
        switch storage {
        case .one(let key):
            precondition(position == 0, "a key of one entity is at 0")
            return key
        case .array(let keys): return keys[position]
        case .made(let key): return key(position)
        }
    }

    /// Rows `rows` (within the keys), made as these are.
    func slice(_ rows: Range<Int>) -> ListingKeys {
        switch storage {
        case .one: rows.isEmpty ? ListingKeys([]) : self
        case .array(let keys): ListingKeys(Array(keys[rows]))
        case .made(let key): ListingKeys(count: rows.count) { key($0 + rows.lowerBound) }
        }
    }

    /// These keys, then `more`'s (a page `next` fetched numbers on from the rows before it).
    func followed(by more: ListingKeys) -> ListingKeys {
        if let first = array, let second = more.array { return ListingKeys(first + second) }
        let count = self.count
        return ListingKeys(count: count + more.count) { [self] row in row < count ? self[row] : more[row - count] }
    }
}
