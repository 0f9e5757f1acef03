import Foundation

/// A value made the first time it is read, once (under a lock: a pack's declarations are
/// constants that any session of `closet serve` may read from its own thread). Start-up
/// declares every installed pack; what a statement never reads is never built.
package final class Deferred<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var make: (@Sendable () -> Value)?
    private var made: Value?

    package init(_ make: @escaping @Sendable () -> Value) { self.make = make }

    package init(value: Value) { made = value }

    package var value: Value {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        let value = make!()
        made = value
        make = nil
        return value
    }
}
