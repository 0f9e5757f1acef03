import Foundation

/// How a statement's value for a field is put on the model, declared on the field's schema line
/// beside its input (`set: .to(\.stock)`): `add` and `edit` (and so an import and a served form)
/// set the model's property from the schema (`EntitySchema.apply`), with no reader naming the
/// field again.
public struct FieldSetter<Model>: Sendable {
    /// False when the value is not of the property's kind (a declaration that disagrees with
    /// itself, which the round-trip tests find).
    let assign: @Sendable (inout Model, FieldValue) -> Bool

    /// The property at `path`, from a value of its kind (text, a whole number, a date, null for
    /// an optional one given `none`).
    public static func to<Value: FieldSettable>(_ path: WritableKeyPath<Model, Value> & Sendable) -> FieldSetter {
        FieldSetter { model, value in
            guard let value = Value(fieldValue: value) else { return false }
            model[keyPath: path] = value
            return true
        }
    }

    /// Sets `value` on `model`; false when it is not of the property's kind.
    public func set(_ value: FieldValue, on model: inout Model) -> Bool { assign(&model, value) }
}

/// A property type a schema may set from a statement's value.
public protocol FieldSettable: SendableMetatype {
    init?(fieldValue: FieldValue)
}

extension String: FieldSettable {
    public init?(fieldValue: FieldValue) {
        guard case .text(let text) = fieldValue else { return nil }
        self = text
    }
}

extension Int: FieldSettable {
    public init?(fieldValue: FieldValue) {
        guard case .integer(let number) = fieldValue else { return nil }
        self = number
    }
}

extension Date: FieldSettable {
    public init?(fieldValue: FieldValue) {
        guard case .date(let date) = fieldValue else { return nil }
        self = date
    }
}

extension Optional: FieldSettable where Wrapped: FieldSettable {
    /// `none` (null) clears it.
    public init?(fieldValue: FieldValue) {
        if case .null = fieldValue {
            self = nil
            return
        }
        guard let value = Wrapped(fieldValue: fieldValue) else { return nil }
        self = value
    }
}
