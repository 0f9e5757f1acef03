import Foundation

/// A value made the first time it is read, once, from any thread (a lock: the declarations
/// holding one are constants any session of `closet serve` reads from its own thread). Start-up
/// declares every pack's commands and entities; most of what they carry (a command's keys, an
/// entity's columns) is read only when that command or entity is used. Inlinable, so each
/// use is specialized: an unspecialized read cost 700 instructions, and binding reads a
/// command's keys per statement.
@usableFromInline package final class Deferred<Value>: @unchecked Sendable {
    @usableFromInline enum State {
        case waiting(@Sendable () -> Value)
        case made(Value)
    }

    @usableFromInline let lock = NSLock()
    @usableFromInline var state: State

    @inlinable package init(_ make: @escaping @Sendable () -> Value) { state = .waiting(make) }

    @inlinable package init(value: Value) { state = .made(value) }

    @inlinable package var value: Value {
        lock.lock()
        defer { lock.unlock() }
        switch state {
        case .made(let value):
            return value
        case .waiting(let make):
            let value = make()
            state = .made(value)
            return value
        }
    }
}
