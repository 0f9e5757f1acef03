import Foundation

/// What a pack's state uses to reach its APIs: the transport the shell chose, base URLs and
/// keys from the environment. Binding and completion never come here.
public final class Network {
    package let transport: Transport
    let environment: [String: String]
    /// Whether a request that writes (POST, PUT, PATCH, DELETE) has been answered: a rolled
    /// back script says so, since a remote write cannot be undone.
    public private(set) var remoteWrites = 0
    /// How requests are answered, for `.show`: `live`, `offline (--offline)`, `replay from http`.
    public let mode: String

    public init(transport: Transport, environment: [String: String], mode: String = "live") {
        self.transport = transport
        self.environment = environment
        self.mode = mode
    }

    /// A session that never reaches out (unit tests, sessions with no network packs).
    public static func offline(reason: String = "(--offline)") -> Network {
        Network(transport: OfflineTransport(reason: reason), environment: [:], mode: "offline " + reason)
    }

    /// The API's base URL: its variable's value when set, else the real service's.
    public func base(of api: RemoteAPI) throws(NetworkError) -> String? {
        guard let value = environment[api.baseVariable], !value.isEmpty else { return api.defaultBase }
        let lower = value.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), URLComponents(string: value)?.host != nil
        else {
            throw .invalidBaseURL(variable: api.baseVariable, value: value)
        }
        return value.hasSuffix("/") ? String(value.dropLast()) : value
    }

    /// Whether the API's base variable is set (the market is remote only then).
    public func isConfigured(_ api: RemoteAPI) -> Bool { !(environment[api.baseVariable] ?? "").isEmpty }

    /// The API's key, or the one-line error naming the variable to set. A transport that
    /// sends nothing (replay, offline) needs none.
    public func key(of api: RemoteAPI) throws(NetworkError) -> String {
        guard let variable = api.keyVariable else { return "" }
        guard let key = environment[variable], !key.isEmpty else {
            if !transport.sendsRequests { return "" }
            throw .missingKey(variable: variable, api: api.title)
        }
        return key
    }

    /// Sends and returns the response, whatever its status.
    public func send(_ request: HTTPRequest) throws(NetworkError) -> HTTPResponse {
        let response = try transport.send(request)
        if request.method != .get, request.method != .head { remoteWrites += 1 }
        return response
    }

    /// Sends and requires a 2xx status; `detail` reads what the API said in a failed
    /// response (its error message), for the one-line error.
    public func successful(
        _ request: HTTPRequest, detail: (HTTPResponse) -> String? = { _ in nil }
    ) throws(NetworkError) -> HTTPResponse {
        let response = try send(request)
        guard response.isSuccess else {
            throw .status(
                response.status, statusLine: response.statusLine, method: request.method.rawValue,
                url: request.displayURL, detail: detail(response).map { Redaction.redact($0, secrets: request.secrets) }
            )
        }
        return response
    }
}
