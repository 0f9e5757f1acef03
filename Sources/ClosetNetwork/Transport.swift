/// The one port packs send requests through. The shell picks the implementation (live
/// through the network helper, replayed from a folder, recording into one, or off); a pack
/// never knows which. Synchronous: statements run one at a time.
public protocol Transport: AnyObject {
    /// The response, whatever its status; throws only when there is none.
    func send(_ request: HTTPRequest) throws(NetworkError) -> HTTPResponse
    /// Whether requests really go out: keys are needed only then (a replay answers without
    /// them, so recordings replay on a machine that has none).
    var sendsRequests: Bool { get }
}

extension Transport {
    package var sendsRequests: Bool { true }
}

/// `--offline`, and golden tests with no `http` folder: nothing leaves the process.
package final class OfflineTransport: Transport {
    let reason: String

    /// `reason` finishes "the network is off ...": `(--offline)`.
    public init(reason: String) { self.reason = reason }

    package var sendsRequests: Bool { false }

    public func send(_ request: HTTPRequest) throws(NetworkError) -> HTTPResponse {
        throw .offline(request.method.rawValue, request.displayURL, reason: reason)
    }
}
