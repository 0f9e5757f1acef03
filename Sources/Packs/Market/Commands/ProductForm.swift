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
            // Most paths start and end with a printable ASCII character: nothing to drop, and
            // no scalar's properties looked up.
            if let first = part.utf8.first, let last = part.utf8.last, (0x21..<0x7F).contains(first),
                (0x21..<0x7F).contains(last)
            {
                return String(part)
            }
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

    /// The edit screen's picker (n/5): the product's pictures as they are, the `remove-image=`th
    /// taken out, then `add-image=` put after the others; at most five, at least one.
    static func picked(_ invocation: Invocation, current: [Picture]) throws(Diagnostic) -> [(
        bytes: [UInt8], info: ImageInfo
    )]? {
        let adding = invocation.argument("add-image")
        let removing = invocation.argument("remove-image")
        guard adding != nil || removing != nil else { return nil }
        if let whole = invocation.argument("image") { throw .wholeSetAndOnePicture(at: whole.range) }
        let range = (removing ?? adding)?.range
        var pictures: [(bytes: [UInt8], info: ImageInfo)] = []
        for (index, picture) in current.enumerated() {
            switch picture.source {
            case .bytes(let bytes):
                do throws(ImageHeader.Problem) {
                    var info = try ImageHeader.inspect(bytes)
                    info.checksum = Checksum.crc32(bytes)
                    pictures.append((bytes, info))
                } catch {
                    throw .currentPictureUnreadable(index + 1, because: error.message, at: range)
                }
            case .unavailable(let reason): throw .currentPictureUnreadable(index + 1, because: reason, at: range)
            case .none, .collage: continue
            }
        }
        if let number = invocation.count("remove-image") {
            // Not `1...count`: a product with no readable picture would make an invalid range.
            guard number >= 1, number <= pictures.count else {
                throw .noSuchPicture(number, has: pictures.count, at: removing?.range)
            }
            pictures.remove(at: number - 1)
        }
        if let adding, case .path(let path) = adding.value {
            pictures.append(try invocation.readPicture(path, range: adding.range))
            pictures[pictures.count - 1].info.checksum = Checksum.crc32(pictures[pictures.count - 1].bytes)
            guard pictures.count <= MarketError.maximumImageCount else {
                throw .tooManyImages(pictures.count, at: adding.range)
            }
        }
        guard !pictures.isEmpty else { throw .lastPicture(at: removing?.range) }
        return pictures
    }

    static func password(_ invocation: Invocation) throws(Diagnostic) -> String {
        guard let password = invocation.secret("password"), !password.isEmpty else {
            throw invocation.missing("password")
        }
        return password
    }

    /// The fields given, read by the product's schema (nil: not given). A text given empty (or
    /// the app's description placeholder) is missing, as one left out is; edit's
    /// `discounted=none` removes the discount.
    static func given(_ invocation: Invocation) throws(Diagnostic) -> ItemForm {
        var form = ItemForm(fields: try MarketRecords.product.draft(invocation))
        // `edit` takes the discount as text: a whole number, or none.
        if let text = form.fields.text("discounted") {
            if text.lowercased() == "none" {
                form.fields["discounted"] = .null
            } else if let discount = WholeNumber.value(text) {
                form.fields["discounted"] = .integer(discount)
            } else {
                throw Diagnostic.badDiscount(text, at: invocation.argument("discounted")?.range)
            }
        }
        if form.fields.text("description") == ItemEditViewModel.descriptionPlaceholder {
            throw invocation.missing("description")
        }
        form.images = try pictures(invocation)
        if form.images?.isEmpty == true { throw invocation.missing("image") }
        return form
    }

    /// A whole new product: everything but the discount is required (the binder refused a
    /// key left out), the discount lower than the price.
    static func new(_ invocation: Invocation) throws(Diagnostic) -> ItemForm {
        let form = try given(invocation)
        if let discount = form.discountedPrice ?? nil, let price = form.price, discount >= price {
            throw .discountNotBelowPrice(discount, price: price, at: invocation.argument("discounted")?.range)
        }
        // The app's own check, last: it must agree.
        let viewModel = ItemEditViewModel()
        for image in form.images ?? [] { viewModel.addImage(image) }
        let fields = form.fields
        let state = viewModel.validate(
            titleText: fields.text("title"), stockText: fields.integer("stock").map(String.init),
            currencyText: fields.text("currency"), priceText: form.price.map(String.init),
            discountedPriceText: (form.discountedPrice ?? nil).map(String.init),
            descriptionsText: fields.text("description"))
        precondition(state == .satisfied, "the command's checks and validate disagree")
        return form
    }
}
