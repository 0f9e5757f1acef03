import ClosetCore
import ClosetLanguage
import Foundation
import Testing

@testable import MarketPack

/// Issue 41: the product's keys are declared once, on its schema, and `add product`,
/// `edit product`, `.dump` and the served form all read that declaration.
@Suite struct ProductInputTests {
    static let product = MarketRecords.product

    @Test func theCommandsKeysAreTheSchemasInputs() {
        let add = AddProduct.spec.keys.map(\.name)
        #expect(
            add == [
                "title", "price", "currency", "stock", "description", "image", "discounted", "password", "id",
                "registered", "hash",
            ])
        #expect(AddProduct.spec.keys.filter(\.isRequired).map(\.name) == Array(add.prefix(6)))
        #expect(
            EditProduct.spec.keys.map(\.name)
                == [
                    "password", "title", "price", "currency", "stock", "description", "image", "discounted",
                    "add-image",
                    "remove-image",
                ])
        // Edit takes a discount or `none`, and requires only the password.
        #expect(EditProduct.spec.keys.first { $0.name == "discounted" }?.kind == .text)
        #expect(EditProduct.spec.keys.filter(\.isRequired).map(\.name) == ["password"])
    }

    @Test func whatTheDumpWritesIsWhatAddReads() {
        let item = Item(
            id: 7, title: "t", descriptions: "d", price: 10, currency: "KRW", stock: 1, discountedPrice: 5,
            thumbnails: ["a.png"], images: ["a.png"], registrationDate: 0)
        let written = Self.product.restoring(item, supplied: ["image": "\"x.png\"", "hash": "\"h\""]).map(\.key)
        let add = Set(AddProduct.spec.keys.map(\.name))
        #expect(!written.isEmpty && written.allSatisfy(add.contains), "\(written)")
        #expect(
            written == [
                "id", "title", "price", "currency", "stock", "discounted", "description", "image", "registered", "hash",
            ])
    }

    @Test func theServedFormsNamesComeFromTheSchema() {
        let names = Dictionary(OpenMarketService.fields.map { ($0.api, $0.key) }, uniquingKeysWith: { a, _ in a })
        #expect(names["descriptions"] == "description" && names["discounted_price"] == "discounted")
        #expect(names["images[]"] == "image" && names["password"] == "password")
        // A text part never names a file to read.
        #expect(!OpenMarketService.textFields.contains { $0.key == "image" })
    }
}
