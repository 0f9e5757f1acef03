import Foundation

/// A value made the first time it is read, once, from any thread (a lock: the declarations
/// holding one are constants any session of `closet serve` reads from its own thread). Start-up
/// declares every pack's commands and entities; most of what they carry (a command's keys, an
/// entity's columns) is read only when that command or entity is used. Inlinable, so each
/// use is specialized: an unspecialized read cost 700 instructions, and binding reads a
/// command's keys per statement.
@usableFromInline package final class Deferred<Value>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    // Kept after the value is made (no type nested in this generic class: its metadata would
    // be made for every `Value` at start-up), and never called again.
    @usableFromInline let make: @Sendable () -> Value
    @usableFromInline var made: Value?

    @inlinable package init(_ make: @escaping @Sendable () -> Value) { self.make = make }

    @inlinable package init(value: Value) {
        // Made already: the closure is never called (the class's lock guards the value).
        nonisolated(unsafe) let made = value
        make = { made }
        self.made = value
    }

    @inlinable package var value: Value {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        let value = make()
        made = value
        return value
    }
}
