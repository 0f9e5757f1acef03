import ClosetCore
import ClosetCrypto
import ClosetLanguage

/// The market's own messages, by id (`market.*`).
extension Diagnostic {
    static func discountNotBelowPrice(_ discount: Int, price: Int, at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "market.discount", "discounted=\(discount) must be lower than price=\(price) (할인 가격은 제품 가격에 비해 낮아야 합니다)",
            at: range)
    }

    static func tooManyImages(_ count: Int, at range: SourceRange?) -> Diagnostic {
        Diagnostic("market.images", "\(count) images: 이미지는 최대 5개까지만 등록할 수 있습니다", at: range)
    }

    static func wholeSetAndOnePicture(at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "market.images-and-picker",
            "give image= (the whole set) or add-image= and remove-image= (one picture), not both", at: range)
    }

    /// `remove-image=N` past the product's pictures.
    static func noSuchPicture(_ number: Int, has count: Int, at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "market.no-such-picture",
            "the product has \(count) picture\(count == 1 ? "" : "s"); there is no \(number)번째 사진", at: range)
    }

    static func lastPicture(at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "market.last-picture",
            "a product keeps at least one picture (the app requires one): add another first", at: range)
    }

    static func currentPictureUnreadable(_ number: Int, because reason: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "market.picture-unreadable", "the product's \(number)번째 사진 cannot be read: \(reason)", at: range)
    }

    static func notAProductID(_ text: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("market.bad-id", "'\(text)' is not a product id (1, 2, 3, ...)", at: range)
    }

    static func badDiscount(_ text: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("market.discount-value", "'discounted' takes a whole number or none, not '\(text)'", at: range)
    }

    static func badPasswordHash(at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "market.hash",
            "'hash' takes a password hash as .dump writes it (pbkdf2-sha256$<\(PasswordHash.acceptedIterations.lowerBound) to \(PasswordHash.acceptedIterations.upperBound) rounds>$<salt>$<hash>, or an earlier build's sha256-4096$<salt>$<hash>)",
            at: range)
    }

}

extension Diagnostic {
    static func pageStartsAtOne(at range: SourceRange?) -> Diagnostic {
        Diagnostic("market.page", "page numbers start at 1", at: range)
    }

    static func productExists(_ id: Int, at range: SourceRange?) -> Diagnostic {
        Diagnostic("market.exists", "a product with id \(id) already exists", at: range)
    }

    static func pictureMissing(_ name: String, product id: Int) -> Diagnostic {
        Diagnostic(
            "market.picture-missing", "picture \(name) of product \(id) is missing from the store or damaged", at: nil)
    }

    /// A server's picture an export could not fetch: why, in the app's words.
    static func remotePicture(_ url: String, _ why: String) -> Diagnostic {
        Diagnostic("market.remote-picture", "cannot copy the picture at \(url): \(why)", at: nil)
    }

    /// Imports fill the embedded market, all or nothing; a server takes products one
    /// `add product` at a time.
    static func remoteTransfer(_ what: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "market.remote-transfer", "\(what) works on the embedded market only (unset CLOSET_MARKET_URL)", at: range)
    }
}
