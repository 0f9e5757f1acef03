import ClosetCore

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
    package func removeUnreferenced(keeping referenced: Set<String>) {
        for name in names where !referenced.contains(name) { remove(named: name) }
    }

    /// The one shape a blob name has, `<UUID>-<8 hex digits>.<extension>` (an owner's id and
    /// the blob's checksum, both made by closet): it cannot leave its folder, and a store never
    /// mistakes someone else's file for one of its own (nor deletes it).
    package static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count >= 36 + 1 + 8 + 2, bytes.count <= 36 + 1 + 8 + 1 + 5 else { return false }
        func isHex(_ byte: UInt8) -> Bool {
            (48...57).contains(byte) || (65...70).contains(byte)
        }
        for (index, byte) in bytes[0..<36].enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard isHex(byte) else { return false }
            }
        }
        guard bytes[36] == UInt8(ascii: "-"), bytes[37..<45].allSatisfy(isHex), bytes[45] == UInt8(ascii: ".") else {
            return false
        }
        return bytes[46...].allSatisfy { (97...122).contains($0) || (48...57).contains($0) }
    }
}

/// Blobs kept in memory, for `:memory:` stores.
package final class MemoryBlobs: BlobStore {
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

/// Whether a name has the one shape a blob's has: what a server checks before it reads one,
/// so a request can name nothing else of the store and nothing outside it.
public enum BlobStoreNames {
    public static func isValid(_ name: String) -> Bool { MemoryBlobs.isValidName(name) }
}
