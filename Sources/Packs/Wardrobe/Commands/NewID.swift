import ClosetCore
import ClosetLanguage
import Foundation

/// `id=<uuid>` on `add`: a pinned id must be new.
enum NewID {
    static func check(_ invocation: Invocation, exists: (UUID) -> Bool) throws(Diagnostic) -> UUID? {
        guard let id = invocation.id("id") else { return nil }
        if exists(id) {
            throw .idAlreadyUsed(id, at: invocation.argument("id")?.range)
        }
        return id
    }
}
