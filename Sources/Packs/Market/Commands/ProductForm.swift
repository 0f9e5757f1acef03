import ClosetCore
import ClosetLanguage
import Foundation

/// Reads `add product` and `edit product` keys (declared on the product's schema,
/// `MarketRecords.product`) into an `ItemForm`, checked as the app's `ItemEditViewModel.validate`
/// checks them, each failure naming its key; pictures are read and checked before anything is
/// written.
enum ProductForm {
    static func pictures(_ invocation: Invocation) throws(Diagnostic) -> [(bytes: [UInt8], info: ImageInfo)]? {
        guard let argument = invocation.argument("image"), let text = invocation.text("image") else { return nil }
        // Spaces around a path are dropped (tabs and Unicode spaces too, as `.whitespaces` does).
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == " " || scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        let paths = text.split(separator: ",").map { part in
            let scalars = part.unicodeScalars
            let start = scalars.firstIndex { !isSpace($0) } ?? scalars.endIndex
            let end = scalars.lastIndex { !isSpace($0) }.map(scalars.index(after:)) ?? start
            return String(scalars[start..<max(start, end)])
        }.filter { !$0.isEmpty }
        guard paths.count <= MarketError.maximumImageCount else {
            throw .tooManyImages(paths.count, at: argument.range)
        }
        var pictures: [(bytes: [UInt8], info: ImageInfo)] = []
        for path in paths {
            var picture = try invocation.readPicture(path, range: argument.range)
            picture.info.checksum = Checksum.crc32(picture.bytes)
            pictures.append(picture)
        }
        return pictures
    }

    static func password(_ invocation: Invocation) throws(Diagnostic) -> String {
        guard let password = invocation.secret("password"), !password.isEmpty else {
            throw invocation.missing("password")
        }
        return password
    }

    /// A whole new product: everything but the discount is required.
    static func new(_ invocation: Invocation) throws(Diagnostic) -> ItemForm {
        var form = ItemForm()
        form.title = invocation.text("title")
        form.price = invocation.count("price")
        form.currency = invocation.value(Currency.self, "currency")
        form.stock = invocation.count("stock")
        form.descriptions = invocation.text("description")
        form.discountedPrice = invocation.count("discounted").map { $0 }
        form.images = try pictures(invocation)
        if let discount = form.discountedPrice ?? nil, let price = form.price, discount >= price {
            throw .discountNotBelowPrice(discount, price: price, at: invocation.argument("discounted")?.range)
        }
        let required: [(String, Bool)] = [
            ("title", form.title?.isEmpty == false), ("price", form.price != nil), ("currency", form.currency != nil),
            ("stock", form.stock != nil),
            (
                "description",
                form.descriptions?.isEmpty == false && form.descriptions != ItemEditViewModel.descriptionPlaceholder
            ),
            ("image", !(form.images ?? []).isEmpty),
        ]
        // The binder refused a key left out; a value given empty is missing too.
        if let (key, _) = required.first(where: { !$0.1 }) { throw invocation.missing(key) }
        // The app's own check, last: it must agree.
        let viewModel = ItemEditViewModel()
        for image in form.images ?? [] { viewModel.addImage(image) }
        let state = viewModel.validate(
            titleText: form.title, stockText: form.stock.map(String.init), currencyText: form.currency?.englishName,
            priceText: form.price.map(String.init), discountedPriceText: (form.discountedPrice ?? nil).map(String.init),
            descriptionsText: form.descriptions)
        precondition(state == .satisfied, "the command's checks and validate disagree")
        return form
    }
}
