import ClosetCore
import ClosetLanguage

/// The adoption pack's own messages, by id (`adoption.*`).
extension Diagnostic {
    static func notADesertionNumber(_ text: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "adoption.bad-number", "'\(text)' is not a desertion number (digits, like 448548202400123)", at: range)
    }

    static func noSuchDog(_ number: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("adoption.no-dog", "the animal-protection API has no animal '\(number)'", at: range)
    }

    static func datesOutOfOrder(at range: SourceRange?) -> Diagnostic {
        Diagnostic("adoption.dates", "'from' must not be after 'to'", at: range)
    }

    static func dogsPageFromOne(at range: SourceRange?) -> Diagnostic {
        Diagnostic("adoption.page", "page numbers start at 1", at: range)
    }
}

extension Diagnostic {
    static func notAnID(_ text: String, _ what: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "adoption.bad-id", "'\(text)' is not \(what == "story" ? "a story" : "a \(what)") id (1, 2, 3, ...)",
            at: range)
    }

    static func noSuch(_ what: String, _ id: Int, at range: SourceRange?) -> Diagnostic {
        Diagnostic("adoption.no-such", "no \(what) has id \(id)", at: range)
    }

    static func notAReceipt(_ text: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("adoption.bad-receipt", "'\(text)' is not a receipt (R-000001, or its number)", at: range)
    }

    static func noSuchDonation(_ receipt: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("adoption.no-such-donation", "no donation of yours has receipt \(receipt)", at: range)
    }

    static func storyPictureDamaged(_ name: String, story id: Int) -> Diagnostic {
        Diagnostic(
            "adoption.picture-damaged",
            "picture \(name) of story \(id) is missing from the store or damaged; 'closet check' says what else is",
            at: nil)
    }

    static func emptyUser(_ key: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("adoption.empty-user", "'\(key)' names a user, and cannot be empty", at: range)
    }

    static func exists(_ what: String, _ id: Int, at range: SourceRange?) -> Diagnostic {
        Diagnostic("adoption.exists", "a \(what) with id \(id) already exists", at: range)
    }

    static func receiptTaken(_ receipt: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("adoption.exists", "a donation with receipt \(receipt) already exists", at: range)
    }

    static func onlyTheAuthor(_ what: String, author: String, doing: String = "remove", at range: SourceRange?)
        -> Diagnostic
    {
        Diagnostic("adoption.not-author", "only its author (\(author)) may \(doing) this \(what)", at: range)
    }

    static func alreadyLiked(_ id: Int, at range: SourceRange?) -> Diagnostic {
        Diagnostic("adoption.liked", "you already like story \(id)", at: range)
    }

    static func notLiked(_ id: Int, at range: SourceRange?) -> Diagnostic {
        Diagnostic("adoption.not-liked", "you do not like story \(id)", at: range)
    }

    static func badLimit(at range: SourceRange?) -> Diagnostic {
        Diagnostic("adoption.limit", "'limit' takes 1 to 100", at: range)
    }

    static func forgedCursor(_ text: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("adoption.cursor", "'\(text)' is not a cursor from list stories", at: range)
    }

    static func staleCursor(_ text: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "adoption.stale-cursor",
            "the cursor '\(text)' is not from this store (it names a story never written here)", at: range)
    }

    static func tooManyStoryImages(_ count: Int, at range: SourceRange?) -> Diagnostic {
        Diagnostic("adoption.images", "\(count) images: a story has at most 5", at: range)
    }
}

/// Accounts of the community API.
extension Diagnostic {
    static func accountExists(_ user: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("adoption.account-exists", "an account named \(user) already exists", at: range)
    }

    static func accountNeedsPassword(at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "adoption.account-password", "an account needs a password (password=, or hash= as .dump writes)",
            at: range)
    }

    static func shortPassword(at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "adoption.short-password",
            "a password has at least \(Accounts.minimumPasswordLength) characters", at: range)
    }

    static func badAccountHash(at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "adoption.bad-hash",
            "'hash' takes a password hash as .dump writes it (pbkdf2-sha256$<rounds>$<salt>$<hash>)", at: range)
    }
}

extension Diagnostic {
    static func unknownName(_ text: String, _ what: String, within: String, names: [String], at range: SourceRange?)
        -> Diagnostic
    {
        let shown = names.prefix(8).joined(separator: ", ") + (names.count > 8 ? ", ..." : "")
        let known = names.isEmpty ? "the API lists none" : "the API lists \(names.count): \(shown)"
        return Diagnostic("adoption.unknown-name", "no \(what) named '\(text)' in \(within) (\(known))", at: range)
    }

    static func ambiguousName(_ text: String, _ what: String, within: String, codes: [String], at range: SourceRange?)
        -> Diagnostic
    {
        Diagnostic(
            "adoption.ambiguous-name",
            "\(codes.count) \(what)s of \(within) are named '\(text)': give one's number (\(codes.joined(separator: ", ")))",
            at: range)
    }

    /// `district=` without `region=`, `shelter=` by name without both.
    static func filterNeeds(_ key: String, _ needed: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("adoption.filter-needs", "'\(key)' by name needs \(needed) (or give its code)", at: range)
    }
}
