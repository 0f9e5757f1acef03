/// The app's binding (reference §2.5): listeners hear every non-nil value, and a new
/// listener hears the current one at once.
public final class Observable<T> {
    public var value: T? {
        didSet {
            guard let value else { return }
            for listener in listeners { listener(value) }
        }
    }
    private var listeners: [(T) -> Void] = []

    public init(_ value: T? = nil) { self.value = value }

    public func subscribe(listener: @escaping (T) -> Void) {
        listeners.append(listener)
        if let value { listener(value) }
    }
}
