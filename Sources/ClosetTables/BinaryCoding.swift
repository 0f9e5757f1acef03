import ClosetCore
import Foundation

/// A row's `Codable` value as the default codec stores it: self-describing (each keyed value
/// under its name, each value tagged with its kind), so rows stay readable when a model gains
/// an optional field, and a damaged row is found rather than misread.
///
/// value = tag u8 | payload: 0 nil | 1 false | 2 true | 3 integer i64 | 4 unsigned u64
///         | 5 double (IEEE bits) u64 | 6 string (u32 length, UTF-8)
///         | 7 keyed (u32 count, (string key, value)*) | 8 unkeyed (u32 count, value*)
indirect enum BinaryValue: Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    case double(Double)
    case string(String)
    case keyed([(String, BinaryValue)])
    case unkeyed([BinaryValue])

    static func == (a: BinaryValue, b: BinaryValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.integer(let x), .integer(let y)): x == y
        case (.unsigned(let x), .unsigned(let y)): x == y
        case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern
        case (.string(let x), .string(let y)): x == y
        case (.keyed(let x), .keyed(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.unkeyed(let x), .unkeyed(let y)): x == y
        default: false
        }
    }

    func write(into writer: inout ByteWriter) {
        switch self {
        case .null: writer.u8(0)
        case .bool(let flag): writer.u8(flag ? 2 : 1)
        case .integer(let number):
            writer.u8(3)
            writer.i64(number)
        case .unsigned(let number):
            writer.u8(4)
            writer.u64(number)
        case .double(let number):
            writer.u8(5)
            writer.u64(number.bitPattern)
        case .string(let text):
            writer.u8(6)
            writer.string(text)
        case .keyed(let members):
            writer.u8(7)
            writer.u32(UInt32(members.count))
            for (key, value) in members {
                writer.string(key)
                value.write(into: &writer)
            }
        case .unkeyed(let items):
            writer.u8(8)
            writer.u32(UInt32(items.count))
            for item in items { item.write(into: &writer) }
        }
    }

    /// Containers nest at most this deep: hostile bytes cannot exhaust the stack.
    static let maximumDepth = 64

    static func read(from reader: inout ByteReader, depth: Int = 0) throws(ByteReader.Malformed) -> BinaryValue {
        guard depth < maximumDepth else { throw ByteReader.Malformed() }
        switch try reader.u8() {
        case 0: return .null
        case 1: return .bool(false)
        case 2: return .bool(true)
        case 3: return .integer(try reader.i64())
        case 4: return .unsigned(try reader.u64())
        case 5: return .double(Double(bitPattern: try reader.u64()))
        case 6: return .string(try reader.string())
        case 7:
            let count = Int(try reader.u32())
            // Each member takes at least 5 bytes: a count beyond what is left is damage.
            guard count <= (reader.end - reader.position) / 5 else { throw ByteReader.Malformed() }
            var members: [(String, BinaryValue)] = []
            members.reserveCapacity(count)
            for _ in 0..<count {
                let key = try reader.string()
                members.append((key, try read(from: &reader, depth: depth + 1)))
            }
            return .keyed(members)
        case 8:
            let count = Int(try reader.u32())
            guard count <= reader.end - reader.position else { throw ByteReader.Malformed() }
            var items: [BinaryValue] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(try read(from: &reader, depth: depth + 1)) }
            return .unkeyed(items)
        default: throw ByteReader.Malformed()
        }
    }
}

// MARK: encoding

/// Turns an `Encodable` value into a `BinaryValue`.
final class BinaryEncoder: Encoder {
    /// Where this encoder's value goes once made: a container fills it as it is written.
    final class Box {
        var value: BinaryValue = .null
        var keyed: [(String, Box)]?
        var unkeyed: [Box]?

        var resolved: BinaryValue {
            if let keyed { return .keyed(keyed.map { ($0.0, $0.1.resolved) }) }
            if let unkeyed { return .unkeyed(unkeyed.map(\.resolved)) }
            return value
        }
    }

    let box: Box
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(box: Box = Box(), codingPath: [any CodingKey] = []) {
        self.box = box
        self.codingPath = codingPath
    }

    static func encode<T: Encodable>(_ value: T) throws -> BinaryValue {
        let encoder = BinaryEncoder()
        try value.encode(to: encoder)
        return encoder.box.resolved
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if box.keyed == nil { box.keyed = [] }
        return KeyedEncodingContainer(KeyedWriter<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if box.unkeyed == nil { box.unkeyed = [] }
        return UnkeyedWriter(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleWriter(box: box, codingPath: codingPath) }

    /// A value as stored: numbers and text directly, anything else through its own encoding.
    static func value<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> Box {
        let box = Box()
        switch value {
        case let flag as Bool: box.value = .bool(flag)
        case let text as String: box.value = .string(text)
        case let number as Double: box.value = .double(number)
        case let number as Float: box.value = .double(Double(number))
        case let number as Int: box.value = .integer(Int64(number))
        case let number as Int8: box.value = .integer(Int64(number))
        case let number as Int16: box.value = .integer(Int64(number))
        case let number as Int32: box.value = .integer(Int64(number))
        case let number as Int64: box.value = .integer(number)
        case let number as UInt: box.value = .unsigned(UInt64(number))
        case let number as UInt8: box.value = .unsigned(UInt64(number))
        case let number as UInt16: box.value = .unsigned(UInt64(number))
        case let number as UInt32: box.value = .unsigned(UInt64(number))
        case let number as UInt64: box.value = .unsigned(number)
        default: try value.encode(to: BinaryEncoder(box: box, codingPath: path))
        }
        return box
    }

    struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let box: Box
        let codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws { box.keyed?.append((key.stringValue, Box())) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            box.keyed?.append((key.stringValue, try BinaryEncoder.value(value, at: codingPath + [key])))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            let nested = Box()
            nested.keyed = []
            box.keyed?.append((key.stringValue, nested))
            return KeyedEncodingContainer(KeyedWriter<NestedKey>(box: nested, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let nested = Box()
            nested.unkeyed = []
            box.keyed?.append((key.stringValue, nested))
            return UnkeyedWriter(box: nested, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder { superEncoder(named: "super", key: Key(stringValue: "super")) }

        mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue, key: key) }

        /// A member named `name` (a key type that cannot say `super` still gets one of that name).
        func superEncoder(named name: String, key: Key?) -> any Encoder {
            let nested = Box()
            box.keyed?.append((name, nested))
            return BinaryEncoder(box: nested, codingPath: codingPath + (key.map { [$0] } ?? []))
        }
    }

    struct UnkeyedWriter: UnkeyedEncodingContainer {
        let box: Box
        let codingPath: [any CodingKey]
        var count: Int { box.unkeyed?.count ?? 0 }

        mutating func encodeNil() throws { box.unkeyed?.append(Box()) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            box.unkeyed?.append(try BinaryEncoder.value(value, at: codingPath))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            let nested = Box()
            nested.keyed = []
            box.unkeyed?.append(nested)
            return KeyedEncodingContainer(KeyedWriter<NestedKey>(box: nested, codingPath: codingPath))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = Box()
            nested.unkeyed = []
            box.unkeyed?.append(nested)
            return UnkeyedWriter(box: nested, codingPath: codingPath)
        }

        mutating func superEncoder() -> any Encoder {
            let nested = Box()
            box.unkeyed?.append(nested)
            return BinaryEncoder(box: nested, codingPath: codingPath)
        }
    }

    struct SingleWriter: SingleValueEncodingContainer {
        let box: Box
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { box.value = .null }

        mutating func encode<T: Encodable>(_ value: T) throws {
            let made = try BinaryEncoder.value(value, at: codingPath)
            box.value = made.value
            box.keyed = made.keyed
            box.unkeyed = made.unkeyed
        }
    }
}

// MARK: decoding

/// Reads a `Decodable` value back from a `BinaryValue`.
struct BinaryDecoder: Decoder {
    let value: BinaryValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func decode<T: Decodable>(_ type: T.Type, from value: BinaryValue) throws -> T {
        try BinaryDecoder(value: value, codingPath: []).decodeValue(T.self)
    }

    func mismatch(_ expected: String) -> DecodingError {
        .typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "expected \(expected)"))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .keyed(let members) = value else { throw mismatch("a keyed container") }
        var byKey: [String: BinaryValue] = [:]
        for (key, member) in members { byKey[key] = member }
        return KeyedDecodingContainer(KeyedReader<Key>(members: byKey, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .unkeyed(let items) = value else { throw mismatch("an unkeyed container") }
        return UnkeyedReader(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// Numbers and text directly (a number read back must fit its type), anything else
    /// through its own decoding.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        // The value as `T`, which the case it is read in has matched (a cast that cannot fail,
        // said without a force).
        func typed(_ value: Any) throws -> T {
            guard let typed = value as? T else { throw mismatch("\(T.self)") }
            return typed
        }
        func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
            switch value {
            case .integer(let number): if let fitted = I(exactly: number) { return fitted }
            case .unsigned(let number): if let fitted = I(exactly: number) { return fitted }
            default: break
            }
            throw mismatch("a whole number that fits \(I.self)")
        }
        switch type {
        case is Bool.Type:
            guard case .bool(let flag) = value else { throw mismatch("true or false") }
            return try typed(flag)
        case is String.Type:
            guard case .string(let text) = value else { throw mismatch("text") }
            return try typed(text)
        case is Double.Type:
            guard case .double(let number) = value else { throw mismatch("a number") }
            return try typed(number)
        case is Float.Type:
            guard case .double(let number) = value else { throw mismatch("a number") }
            return try typed(Float(number))
        case is Int.Type: return try typed(integer(Int.self))
        case is Int8.Type: return try typed(integer(Int8.self))
        case is Int16.Type: return try typed(integer(Int16.self))
        case is Int32.Type: return try typed(integer(Int32.self))
        case is Int64.Type: return try typed(integer(Int64.self))
        case is UInt.Type: return try typed(integer(UInt.self))
        case is UInt8.Type: return try typed(integer(UInt8.self))
        case is UInt16.Type: return try typed(integer(UInt16.self))
        case is UInt32.Type: return try typed(integer(UInt32.self))
        case is UInt64.Type: return try typed(integer(UInt64.self))
        default: return try T(from: self)
        }
    }

    struct KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: BinaryValue]
        let codingPath: [any CodingKey]
        var allKeys: [Key] { members.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        func member(_ key: Key) throws -> BinaryDecoder {
            guard let value = members[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
            }
            return BinaryDecoder(value: value, codingPath: codingPath + [key])
        }

        func decodeNil(forKey key: Key) throws -> Bool { members[key.stringValue].map { $0 == .null } ?? true }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key).decodeValue(T.self) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try member(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try member(key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            guard let key = Key(stringValue: "super") else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: codingPath, debugDescription: "no member 'super' in these keys"))
            }
            return try member(key)
        }
        func superDecoder(forKey key: Key) throws -> any Decoder { try member(key) }
    }

    struct UnkeyedReader: UnkeyedDecodingContainer {
        let items: [BinaryValue]
        let codingPath: [any CodingKey]
        var currentIndex = 0
        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        mutating func next() throws -> BinaryDecoder {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    Any.self, .init(codingPath: codingPath, debugDescription: "no more items"))
            }
            currentIndex += 1
            return BinaryDecoder(value: items[currentIndex - 1], codingPath: codingPath)
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, items[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(T.self) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try next().container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
        mutating func superDecoder() throws -> any Decoder { try next() }
    }
}

extension BinaryDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value == .null }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(T.self) }
}
