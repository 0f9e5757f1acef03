import ClosetCore
import ClosetLanguage
import Foundation

/// `id=<uuid>` on `add`: a pinned id must be new.
enum NewID {
    static func check(_ invocation: Invocation, exists: (UUID) -> Bool) throws(Diagnostic) -> UUID? {
        guard let id = invocation.id("id") else { return nil }
        if exists(id) {
            throw Diagnostic("id '\(id.uuidString)' is already used", at: invocation.argument("id")?.range)
        }
        return id
    }
}
