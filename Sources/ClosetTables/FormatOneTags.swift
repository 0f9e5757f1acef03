import ClosetCore

/// A table's operation tags in store format 1 (the row or key followed the tag directly).
public struct FormatOneTags: Sendable, Hashable {
    public let put: UInt8
    public let delete: UInt8

    public init(put: UInt8, delete: UInt8) {
        self.put = put
        self.delete = delete
    }
}
