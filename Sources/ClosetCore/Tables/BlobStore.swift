/// Opaque byte files a store keeps beside its rows (pictures), named by the pack from values
/// it makes itself. A blob is written before the row that refers to it is committed, and
/// deleted only after a committed change stops referring to it.
public protocol BlobStore: AnyObject {
    func write(_ bytes: [UInt8], named name: String) throws(StoreError)
    func read(named name: String) -> [UInt8]?
    func remove(named name: String)
    var names: [String] { get }
    var totalBytes: Int { get }
}

extension BlobStore {
    /// Deletes every blob no row refers to: leftovers of rolled-back or crashed changes.
    public func removeUnreferenced(keeping referenced: Set<String>) {
        for name in names where !referenced.contains(name) { remove(named: name) }
    }

    /// A blob name a pack made must stay a plain file name: no folder, no hidden file.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first != "." else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))) || scalar == "-"
                || scalar == "."
                || scalar == "_"
        }
    }
}

/// Blobs kept in memory, for `:memory:` stores.
public final class MemoryBlobs: BlobStore {
    private var files: [String: [UInt8]] = [:]

    public init() {}

    public func write(_ bytes: [UInt8], named name: String) throws(StoreError) {
        guard Self.isValidName(name) else { throw StoreError("'\(name)' is not a valid blob name") }
        files[name] = bytes
    }

    public func read(named name: String) -> [UInt8]? { files[name] }
    public func remove(named name: String) { files.removeValue(forKey: name) }
    public var names: [String] { Array(files.keys) }
    public var totalBytes: Int { files.values.reduce(0) { $0 + $1.count } }
}
