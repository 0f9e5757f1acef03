/// A row that passes its checksums but cannot be decoded (a snapshot written by a build with
/// another codec, or bytes made to look valid) is found where a row is read, deep inside
/// accessors that cannot throw. It is damage, never a row to guess at: the host decides what
/// happens (the shell says so and exits 3, reading nothing further and writing nothing);
/// without a host it stops the process with the same words.
public enum UnreadableRow {
    /// Set once by the host before any store is read.
    nonisolated(unsafe) public static var handler: (String) -> Never = { fatalError($0) }

    public static func found(_ what: String) -> Never { handler(what) }
}
