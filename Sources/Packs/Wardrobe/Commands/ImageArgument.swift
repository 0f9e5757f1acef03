import ClosetCore
import ClosetLanguage
import Foundation

/// `image=<path>` (and `image=none` on edit): the picture read and checked before anything
/// is written.
enum ImageArgument {
    enum Change {
        case set(bytes: [UInt8], info: ImageInfo)
        case remove
    }

    static func change(_ invocation: Invocation) throws(Diagnostic) -> Change? {
        guard let argument = invocation.argument("image") else { return nil }
        switch argument.value {
        case .path(let path):
            let picture = try invocation.readPicture(path, range: argument.range)
            return .set(bytes: picture.bytes, info: picture.info)
        case .none:
            return .remove
        case .text, .terms, .count, .size, .date, .references, .id:
            throw .imageTakesPath(at: argument.range)
        }
    }

    /// A new picture (`add`): `none` is not offered there, but one who writes it is told why
    /// rather than that no file is called `none`.
    static func read(_ invocation: Invocation) throws(Diagnostic) -> (bytes: [UInt8], info: ImageInfo)? {
        // Most adds have none: looked for once.
        guard let argument = invocation.argument("image") else { return nil }
        if case .path(let path) = argument.value, path.lowercased() == "none" {
            do throws(Diagnostic) {
                return try invocation.readPicture(path, range: argument.range)
            } catch {
                throw .nothingToRemove(at: argument.range)
            }
        }
        switch try change(invocation) {
        case .set(let bytes, let info)?:
            return (bytes, info)
        case .remove?:
            throw .nothingToRemove(at: invocation.argument("image")?.range)
        case nil:
            return nil
        }
    }
}
