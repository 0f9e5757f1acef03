import ClosetCore

/// The store itself failed (a write, a sync, a damaged file): reported in the engine's own
/// words, never as an app's alert text.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
