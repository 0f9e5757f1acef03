import ClosetCore
import ClosetLanguage

/// The photos pack's own messages, by id (`photos.*`).
extension Diagnostic {
    static func alreadySaved(_ id: String, at range: SourceRange? = nil) -> Diagnostic {
        Diagnostic("photos.already-saved", "photo '\(id)' is already saved", at: range)
    }

    static func notSaved(_ id: String, at range: SourceRange? = nil) -> Diagnostic {
        Diagnostic("photos.not-saved", "photo '\(id)' is not saved", at: range)
    }

    static func notAPhotoPicture(_ url: String, problem: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("photos.not-a-picture", "the picture at \(url) is not a PNG or JPEG: \(problem)", at: range)
    }

    static func feedHasNoTotal(at range: SourceRange) -> Diagnostic {
        Diagnostic(
            "photos.no-total", "the feed did not say how many photos it has (no X-Total from Unsplash)", at: range)
    }

    static func pageFromOne(at range: SourceRange) -> Diagnostic {
        Diagnostic("photos.page", "page numbers start at 1", at: range)
    }

    static func savedPictureMissing(_ id: String) -> Diagnostic {
        Diagnostic("photos.picture-missing", "the picture of saved photo '\(id)' is missing from the store", at: nil)
    }

    static func savedPictureDamaged(_ id: String) -> Diagnostic {
        Diagnostic(
            "photos.picture-damaged",
            "the picture of saved photo '\(id)' is damaged (its bytes do not match their checksum)", at: nil)
    }

    static func notAPhotoID(_ text: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "photos.bad-id", "'\(text)' is not an Unsplash photo id (letters, digits, - and _)", at: range)
    }
}
