import ClosetCore
import ClosetLanguage
import Foundation

/// Reads `add product` and `edit product` keys into an `ItemForm`, checked as the app's
/// `ItemEditViewModel.validate` checks them, each failure naming its key; pictures are read
/// and checked before anything is written.
enum ProductForm {
    /// The form's keys: all required by `add` (with the app's alert), none by `edit`.
    static func keys(required: Bool) -> [KeySpec] {
        let alert = required ? "\(ItemEditViewModel.dissatisfiedTitle): 할인 가격을 제외한 모든 요소를 채워야 합니다" : nil
        return [
            KeySpec("title", .text, "the product's name (제품명)"),
            KeySpec("price", .count, "the price, a whole number (제품 가격)"),
            KeySpec("currency", .vocabulary(Currency.info, many: false), "the currency (화폐)"),
            KeySpec("stock", .count, "how many are in stock (제품 수량)"),
            KeySpec("description", .text, "the description (제품 설명)"),
            KeySpec(
                "image", .paths(maximum: MarketError.maximumImageCount),
                "one to five PNG or JPEG files, separated by commas"),
        ].map {
            var key = $0.required(required)
            key.whenMissing = alert
            return key
        }
    }

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
