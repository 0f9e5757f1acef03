/// One imported row's fields by name: a CSV row's values beside its file's header (the names
/// shared by every row), or a JSON object's members. A field given empty or null is `.some(nil)`,
/// one the row does not have is nil. Rows have a handful of fields, so a name is found by a scan:
/// cheaper than hashing it, and no dictionary is made per row.
public struct RowFields: Sendable {
    public private(set) var keys: [String]
    private var values: [String?]

    public init() {
        keys = []
        values = []
    }

    public init(names: [String], values: [String?]) {
        precondition(names.count == values.count, "a row has a value for each name")
        keys = names
        self.values = values
    }

    /// The value of the `index`th name (nil: null or empty in the file).
    package func value(at index: Int) -> String? { values[index] }

    public subscript(key: String) -> String?? {
        get {
            var index = 0
            while index < keys.count {
                if keys[index] == key { return .some(values[index]) }
                index += 1
            }
            return nil
        }
        set {
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
