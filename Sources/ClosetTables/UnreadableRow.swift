import ClosetCore
import Foundation

/// A row that passes its checksums but cannot be decoded (a snapshot written by a build with
/// another codec, or bytes made to look valid), or a block that fails its checksum, is found
/// where a row is read, deep inside accessors that cannot throw. It is damage, never a row to
/// guess at, and nothing that read it may go on: the host decides what happens instead. The
/// shell says so and exits 3, reading nothing further and writing nothing (`handler`); a
/// server's worker answers its request with an error and hands its place to a new thread
/// (`threadHandler`), so one damaged row fails one request, not the server. Without either it
/// stops the process with the same words.
public enum UnreadableRow {
    /// Set once by the host before any store is read.
    nonisolated(unsafe) public static var handler: (String) -> Never = { fatalError($0) }

    private final class Box {
        let handler: (String) -> Never
        init(_ handler: @escaping (String) -> Never) { self.handler = handler }
    }

    private static let key = "closet.unreadable-row"

    /// This thread's own handler, ahead of the process's: a thread that must not decide for
    /// the process (a server's worker) sets it.
    public static var threadHandler: ((String) -> Never)? {
        get { (Thread.current.threadDictionary[key] as? Box)?.handler }
        set { Thread.current.threadDictionary[key] = newValue.map(Box.init) }
    }

    public static func found(_ what: String) -> Never {
        if let own = threadHandler { own(what) }
        handler(what)
    }
}
