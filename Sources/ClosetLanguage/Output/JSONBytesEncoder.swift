import Foundation

/// A model's own `Codable` as JSON bytes, written straight into one buffer: a served API whose
/// JSON is the app's model (the open market's `Item`, decoded by the client with the same
/// `CodingKeys`) is declared once, by the model. Foundation's `JSONEncoder` spent over 90% of a
/// served page's instructions boxing every value into a tree first (Swift's corelibs on Linux).
///
/// Compact, keys in the order the model encodes them, a nil optional left out (as
/// `encodeIfPresent` does), strings escaped as `JSONText` escapes them and doubles written as
/// `JSONText.number` writes them. Containers are closed as the model moves on: synthesized
/// `encode(to:)` writes depth first, so a write at a shallower depth closes what is deeper.
public enum JSONBytesEncoder {
    public static func encode(_ value: some Encodable) throws -> [UInt8] {
        let writer = Writer()
        try writer.value(value, depth: 0)
        writer.close(downTo: 0)
        return writer.out
    }
}

extension JSONBytesEncoder {
    /// The buffer, and the containers still open in it (innermost last).
    final class Writer {
        var out: [UInt8] = []
        /// Each open container: its closing byte, and whether it has an element yet.
        var open: [(close: UInt8, hasElement: Bool)] = []

        init() { out.reserveCapacity(1024) }

        /// Closes every container deeper than `depth` (a write at `depth` means they are done).
        func close(downTo depth: Int) {
            while open.count > depth {
                out.append(open.removeLast().close)
            }
        }

        /// Opens a container at `depth` (`{` or `[`), unless the value at that depth already did.
        func begin(_ opening: UInt8, _ closing: UInt8, depth: Int) {
            close(downTo: depth)
            out.append(opening)
            open.append((closing, false))
        }

        /// Starts an element of the container at `depth` (its comma, and its key).
        func element(depth: Int, key: String?) {
            close(downTo: depth)
            guard depth > 0 else { return }
            if open[depth - 1].hasElement { out.append(UInt8(ascii: ",")) }
            open[depth - 1].hasElement = true
            if let key {
                JSONText.write(key, into: &out)
                out.append(UInt8(ascii: ":"))
            }
        }

        func text(_ string: String) { JSONText.write(string, into: &out) }

        func raw(_ string: String) {
            var string = string
            string.withUTF8 { out.append(contentsOf: $0) }
        }

        func double(_ number: Double) throws {
            guard number.isFinite else {
                throw EncodingError.invalidValue(
                    number, EncodingError.Context(codingPath: [], debugDescription: "\(number) is not a JSON number"))
            }
            raw(JSONText.number(number))
        }

        /// A nested value at `depth`: the container it asks for opens there; one that asks for
        /// none is an empty object, as `JSONEncoder` writes it.
        func value(_ value: some Encodable, depth: Int) throws {
            let before = out.count
            try value.encode(to: ContainerEncoder(writer: self, depth: depth))
            if out.count == before { raw("{}") }
        }
    }

    struct ContainerEncoder: Encoder {
        let writer: Writer
        let depth: Int
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            writer.begin(UInt8(ascii: "{"), UInt8(ascii: "}"), depth: depth)
            return KeyedEncodingContainer(Keyed<Key>(writer: writer, depth: depth + 1))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            writer.begin(UInt8(ascii: "["), UInt8(ascii: "]"), depth: depth)
            return Unkeyed(writer: writer, depth: depth + 1)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { Single(writer: writer, depth: depth) }
    }

    /// One value where the encoder stands: the container's element was started by its parent.
    struct Single: SingleValueEncodingContainer {
        let writer: Writer
        let depth: Int
        var codingPath: [any CodingKey] { [] }

        func encodeNil() { writer.raw("null") }
        func encode(_ value: Bool) { writer.raw(value ? "true" : "false") }
        func encode(_ value: String) { writer.text(value) }
        func encode(_ value: Double) throws { try writer.double(value) }
        func encode(_ value: Float) throws { try writer.double(Double(value)) }
        func encode(_ value: Int) { writer.raw(String(value)) }
        func encode(_ value: Int8) { writer.raw(String(value)) }
        func encode(_ value: Int16) { writer.raw(String(value)) }
        func encode(_ value: Int32) { writer.raw(String(value)) }
        func encode(_ value: Int64) { writer.raw(String(value)) }
        func encode(_ value: UInt) { writer.raw(String(value)) }
        func encode(_ value: UInt8) { writer.raw(String(value)) }
        func encode(_ value: UInt16) { writer.raw(String(value)) }
        func encode(_ value: UInt32) { writer.raw(String(value)) }
        func encode(_ value: UInt64) { writer.raw(String(value)) }
        func encode(_ value: some Encodable) throws { try writer.value(value, depth: depth) }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let writer: Writer
        /// The depth of this container's values.
        let depth: Int
        var codingPath: [any CodingKey] { [] }

        func start(_ key: Key) -> Single {
            writer.element(depth: depth, key: key.stringValue)
            return Single(writer: writer, depth: depth)
        }

        func encodeNil(forKey key: Key) { start(key).encodeNil() }
        func encode(_ value: Bool, forKey key: Key) { start(key).encode(value) }
        func encode(_ value: String, forKey key: Key) { start(key).encode(value) }
        func encode(_ value: Double, forKey key: Key) throws { try start(key).encode(value) }
        func encode(_ value: Float, forKey key: Key) throws { try start(key).encode(value) }
        func encode(_ value: Int, forKey key: Key) { start(key).encode(value) }
        func encode(_ value: Int8, forKey key: Key) { start(key).encode(value) }
        func encode(_ value: Int16, forKey key: Key) { start(key).encode(value) }
        func encode(_ value: Int32, forKey key: Key) { start(key).encode(value) }
        func encode(_ value: Int64, forKey key: Key) { start(key).encode(value) }
        func encode(_ value: UInt, forKey key: Key) { start(key).encode(value) }
        func encode(_ value: UInt8, forKey key: Key) { start(key).encode(value) }
        func encode(_ value: UInt16, forKey key: Key) { start(key).encode(value) }
        func encode(_ value: UInt32, forKey key: Key) { start(key).encode(value) }
        func encode(_ value: UInt64, forKey key: Key) { start(key).encode(value) }
        func encode(_ value: some Encodable, forKey key: Key) throws { try start(key).encode(value) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            writer.element(depth: depth, key: key.stringValue)
            return ContainerEncoder(writer: writer, depth: depth).container(keyedBy: keyType)
        }

        func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            writer.element(depth: depth, key: key.stringValue)
            return ContainerEncoder(writer: writer, depth: depth).unkeyedContainer()
        }

        func superEncoder() -> any Encoder {
            writer.element(depth: depth, key: "super")
            return ContainerEncoder(writer: writer, depth: depth)
        }

        func superEncoder(forKey key: Key) -> any Encoder {
            writer.element(depth: depth, key: key.stringValue)
            return ContainerEncoder(writer: writer, depth: depth)
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let writer: Writer
        let depth: Int
        var codingPath: [any CodingKey] { [] }
        var count = 0

        mutating func start() -> Single {
            count += 1
            writer.element(depth: depth, key: nil)
            return Single(writer: writer, depth: depth)
        }

        mutating func encodeNil() { start().encodeNil() }
        mutating func encode(_ value: Bool) { start().encode(value) }
        mutating func encode(_ value: String) { start().encode(value) }
        mutating func encode(_ value: Double) throws { try start().encode(value) }
        mutating func encode(_ value: Float) throws { try start().encode(value) }
        mutating func encode(_ value: Int) { start().encode(value) }
        mutating func encode(_ value: Int8) { start().encode(value) }
        mutating func encode(_ value: Int16) { start().encode(value) }
        mutating func encode(_ value: Int32) { start().encode(value) }
        mutating func encode(_ value: Int64) { start().encode(value) }
        mutating func encode(_ value: UInt) { start().encode(value) }
        mutating func encode(_ value: UInt8) { start().encode(value) }
        mutating func encode(_ value: UInt16) { start().encode(value) }
        mutating func encode(_ value: UInt32) { start().encode(value) }
        mutating func encode(_ value: UInt64) { start().encode(value) }
        mutating func encode(_ value: some Encodable) throws { try start().encode(value) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            count += 1
            writer.element(depth: depth, key: nil)
            return ContainerEncoder(writer: writer, depth: depth).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            count += 1
            writer.element(depth: depth, key: nil)
            return ContainerEncoder(writer: writer, depth: depth).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            count += 1
            writer.element(depth: depth, key: nil)
            return ContainerEncoder(writer: writer, depth: depth)
        }
    }
}
