import ClosetCore

/// An entity's JSON, from its schema: the object `show` prints under `--format json`, keys in
/// the schema's field order. What a pack's served API answers with when the app reads the
/// entity as closet shows it, so its JSON is declared once, with the schema.
extension EntitySchema {
    /// One object.
    public func json(_ model: Model) -> [UInt8] {
        var out: [UInt8] = []
        JSONRenderer.write(record(model).fields, into: &out)
        return out
    }

    /// An array of objects, in the order given.
    public func json(list models: some Sequence<Model>) -> [UInt8] {
        var out: [UInt8] = [0x5B]
        for (number, model) in models.enumerated() {
            if number > 0 { out.append(0x2C) }
            JSONRenderer.write(record(model).fields, into: &out)
        }
        out.append(0x5D)
        return out
    }
}
