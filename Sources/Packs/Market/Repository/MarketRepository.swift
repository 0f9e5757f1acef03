import ClosetCore
import ClosetCrypto
import ClosetLanguage
import ClosetTables
import Foundation

/// What a new or edited product carries: its fields by the keys the product's schema declares
/// (`MarketRecords.product`; one not given is unchanged on edit, `discounted` null removes the
/// discount), and its checked pictures, in order (nil keeps the product's).
package struct ItemForm: Sendable {
    package var fields: EntityDraft
    package var images: [(bytes: [UInt8], info: ImageInfo)]?

    package init(fields: EntityDraft = EntityDraft(), images: [(bytes: [UInt8], info: ImageInfo)]? = nil) {
        self.fields = fields
        self.images = images
    }

    package var price: Int? { fields.integer("price") }
    /// The discount given: `.some(nil)` removes it (edit's `discounted=none`).
    package var discountedPrice: Int?? {
        switch fields["discounted"] {
        case .null?: .some(nil)
        case .integer(let discount)?: discount
        default: nil
        }
    }
}

/// The market behind one protocol: embedded in the store, or a remote open-market server.
/// Both give the same `Item`s, so commands print the same bytes whichever answers.
package protocol MarketRepository: AnyObject {
    /// One page of 20, newest first (`page` counts from 1).
    func items(page: Int) throws -> ItemList
    func item(id: Int) throws -> Item
    func create(_ form: ItemForm, password: String) throws -> Item
    func update(id: Int, _ form: ItemForm, password: String) throws -> Item
    func delete(id: Int, password: String) throws -> Item
    /// How many products there are, when the repository knows without asking.
    var count: Int? { get }
}

/// The app's errors, with its own words.
package enum MarketError: Error, Equatable, LocalizedMessage {
    case wrongPassword
    case noSuchProduct(Int)
    case tooManyImages
    case noSuchPage(Int)
    case remoteCannotRemoveDiscount
    /// The last id a statement can write is taken.
    case noIDLeft

    static let maximumImageCount = 5

    package var diagnosticID: String? {
        switch self {
        case .wrongPassword: "market.wrong-password"
        case .noSuchProduct: "market.no-such-product"
        case .tooManyImages, .noSuchPage, .remoteCannotRemoveDiscount, .noIDLeft: nil
        }
    }

    package var message: String {
        switch self {
        case .wrongPassword: "wrong password (비밀번호 오류: 올바른 비밀번호가 아닙니다)"
        case .noSuchProduct(let id): "no product has id \(id)"
        case .tooManyImages: "이미지 등록 개수 초과: 이미지는 최대 5개까지만 등록할 수 있습니다"
        case .noSuchPage(let page): "the open market has no page \(page)"
        case .noIDLeft: "no new product id is left: the last one is \(WholeNumber.maximum); give id= a free one"
        case .remoteCannotRemoveDiscount:
            "the open-market API cannot remove a discount (discounted=none works on the embedded market)"
        }
    }
}

/// The market in the store: ids 1, 2, 3… never reused, pictures as blobs, passwords as
/// salted hashes only.
final class EmbeddedMarket: MarketRepository {
    static let pageSize = 20
    let products: Table<ProductTable>
    let sequence: Table<ProductSequenceTable>
    let blobs: BlobStore
    let newID: () -> UUID
    let now: () -> Date
    /// PBKDF2's rounds for new password hashes (`PasswordHash.testIterations` in
    /// deterministic sessions, whose salts repeat anyway).
    let passwordIterations: Int

    init(
        _ store: Store, newID: @escaping () -> UUID, now: @escaping () -> Date,
        passwordIterations: Int = PasswordHash.standardIterations
    ) throws(StoreError) {
        products = try store.tables.table(ProductTable.schema)
        sequence = try store.tables.table(ProductSequenceTable.schema)
        blobs = store.blobs
        self.newID = newID
        self.now = now
        self.passwordIterations = passwordIterations
    }

    var count: Int? { products.count }

    /// Newest first: ids only grow, so by id descending (the table's index: the page's rows
    /// are the only ones decoded).
    func items(page: Int) throws -> ItemList {
        guard page >= 1 else { throw MarketError.noSuchPage(page) }
        // A page past every product is empty, however large (no multiplication that can overflow).
        let (skip, overflow) = (page - 1).multipliedReportingOverflow(by: Self.pageSize)
        guard !overflow, skip < products.count else { return ItemList(page: page, items: []) }
        let slice = products.orderedRows(groups: [[0]], descending: true, skip: skip, limit: Self.pageSize)
        return ItemList(
            page: page,
            // The store's list keeps each description, so a listing's JSON and CSV have it as
            // `show` does; the served API's list leaves it out, as the real one (ItemJSON).
            items: slice.map { product in
                var item = product.item
                item.images = nil
                return item
            })
    }

    func stored(_ id: Int) throws -> StoredProduct {
        guard let product = products[id] else { throw MarketError.noSuchProduct(id) }
        return product
    }

    func item(id: Int) throws -> Item { try stored(id).item }

    private func pictures(_ images: [(bytes: [UInt8], info: ImageInfo)]) throws -> [StoredProduct.Picture] {
        guard images.count <= MarketError.maximumImageCount else { throw MarketError.tooManyImages }
        var pictures: [StoredProduct.Picture] = []
        for image in images {
            let picture = StoredProduct.Picture(id: newID(), info: image.info)
            try blobs.write(image.bytes, named: picture.name)
            pictures.append(picture)
        }
        return pictures
    }

    func hash(_ password: String) -> PasswordHash {
        let salt = withUnsafeBytes(of: newID().uuid) { Array($0) }
        return PasswordHash(password: password, salt: salt, iterations: passwordIterations)
    }

    /// The id a new product takes; nil past the largest a statement can write.
    var nextID: Int? {
        let last = sequence["last"] ?? 0
        return last < WholeNumber.maximum ? last + 1 : nil
    }

    func create(_ form: ItemForm, password: String) throws -> Item {
        guard let id = nextID else { throw MarketError.noIDLeft }
        // The pictures' ids are drawn before the password's salt, as they always were.
        let pictures = try pictures(form.images ?? [])
        var product = StoredProduct(id: id, passwordHash: hash(password), registeredAt: now())
        product.apply(form)
        product.pictures = pictures
        products.upsert(product)
        sequence.upsert(id)
        return product.item
    }

    /// Restores a product exactly as a dump wrote it (its id, time and password hash).
    func restore(_ product: StoredProduct, images: [(bytes: [UInt8], info: ImageInfo)]) throws -> Item {
        var product = product
        product.pictures = try pictures(images)
        products.upsert(product)
        if (sequence["last"] ?? 0) < product.id { sequence.upsert(product.id) }
        return product.item
    }

    func update(id: Int, _ form: ItemForm, password: String) throws -> Item {
        var product = try stored(id)
        guard product.passwordHash.matches(password) else { throw MarketError.wrongPassword }
        // A hash from an earlier build (or a cheaper one) is replaced now that the password is known.
        if product.passwordHash.needsRehash(iterations: passwordIterations) { product.passwordHash = hash(password) }
        product.apply(form)
        if let images = form.images { product.pictures = try pictures(images) }
        products.upsert(product)
        return product.item
    }

    func delete(id: Int, password: String) throws -> Item {
        let product = try stored(id)
        guard product.passwordHash.matches(password) else { throw MarketError.wrongPassword }
        products.remove(id)
        return product.item
    }

    func picture(named name: String) -> [UInt8]? { blobs.read(named: name) }
}
