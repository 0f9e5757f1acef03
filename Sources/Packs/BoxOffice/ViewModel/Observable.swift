/// The app's binding (reference §2.5): listeners hear every non-nil value, and a new
/// listener hears the current one at once.
package final class Observable<T> {
    package var value: T? {
        didSet {
            guard let value else { return }
            for listener in listeners { listener(value) }
        }
    }
    private var listeners: [(T) -> Void] = []

    package init(_ value: T? = nil) { self.value = value }

    package func subscribe(listener: @escaping (T) -> Void) {
        listeners.append(listener)
        if let value { listener(value) }
    }
}
