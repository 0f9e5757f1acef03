/// One imported row's fields by name: a CSV row's values beside its file's header (the names
/// shared by every row), or a JSON object's members. A field given empty or null is `.some(nil)`,
/// one the row does not have is nil. Rows have a handful of fields, so a name is found by a scan:
/// cheaper than hashing it, and no dictionary is made per row.
public struct RowFields: Sendable {
    public private(set) var keys: [String]
    private var values: Values
    /// A CSV row's `add` arguments, read from its fields as its file was read (on the reading
    /// thread: `ImportedRows.RecordBinding`), with the length of the statement they make; nil
    /// when not, or when they must be bound as the row is added.
    var read: (arguments: ArraySlice<ReadArgument>, length: Int)?

    private enum Values: Sendable {
        case text([String?])
        /// A CSV record's fields where they lie in its file: a value is made only when read,
        /// and one read as a word or a date never is (`withFileBytes`).
        case csv(file: [UInt8], fields: [CSVReader.Field])
    }

    public init() {
        keys = []
        values = .text([])
    }

    public init(names: [String], values: [String?]) {
        precondition(names.count == values.count, "a row has a value for each name")
        keys = names
        self.values = .text(values)
    }

    /// A CSV record of `file` (valid UTF-8), its fields beside the header's `names`.
    package init(names: [String], file: [UInt8], fields: [CSVReader.Field]) {
        precondition(names.count == fields.count, "a row has a value for each name")
        keys = names
        values = .csv(file: file, fields: fields)
    }

    /// The value of the `index`th name (nil: null or empty in the file).
    package func value(at index: Int) -> String? {
        switch values {
        case .text(let values): values[index]
        case .csv(let file, let fields):
            fields[index].isEmpty ? nil : file.withUnsafeBufferPointer { fields[index].text(in: $0) }
        }
    }

    /// A CSV row's file and its fields' places in it, for reading values where they lie; nil
    /// for a JSON row.
    package func withFileBytes<Result>(
        _ body: (_ file: UnsafeBufferPointer<UInt8>, _ fields: [CSVReader.Field]) -> Result
    ) -> Result? {
        guard case .csv(let file, let fields) = values else { return nil }
        return file.withUnsafeBufferPointer { body($0, fields) }
    }

    public subscript(key: String) -> String?? {
        get {
            var index = 0
            while index < keys.count {
                if keys[index] == key { return .some(value(at: index)) }
                index += 1
            }
            return nil
        }
        set {
            // Changed, a CSV row's values are made (a row is changed as a JSON one is read);
            // a JSON row's are taken out while they change, so they are not copied.
            var values: [String?]
            switch self.values {
            case .text(let held): values = held
            case .csv: values = keys.indices.map(value(at:))
            }
            self.values = .text([])
            // Arguments read from the values as they were no longer hold.
            read = nil
            defer { self.values = .text(values) }
            let index = keys.firstIndex(of: key)
            switch (index, newValue) {
            case (let index?, let value?): values[index] = value
            case (let index?, nil):
                keys.remove(at: index)
                values.remove(at: index)
            case (nil, let value?):
                keys.append(key)
                values.append(value)
            case (nil, nil): break
            }
        }
    }
}
