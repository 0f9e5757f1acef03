import ClosetCore

/// One change as the files keep it: a table, a key, and the whole new row (nil: deleted).
/// Replaying operations in order rebuilds the tables, insertion order included.
public struct EncodedOperation: Hashable, Sendable {
    public var table: String
    public var key: [UInt8]
    public var row: [UInt8]?

    public init(table: String, key: [UInt8], row: [UInt8]?) {
        self.table = table
        self.key = key
        self.row = row
    }
}
