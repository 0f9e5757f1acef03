import ClosetNetwork
import Foundation

/// `closet serve --through <api>=<live base URL> --record <folder>`: a recording proxy. A
/// request to a replaying API that no recording answers is sent to the live API (through
/// closet's network helper), recorded with every secret left out (as `--record` writes) and
/// answered; from then on the recording answers it. A picture the answers name is fetched
/// and recorded the same way. So a user records what *their app* asks, in its own query
/// shapes, in one session online, and replays it offline ever after.
public final class ServedThrough: @unchecked Sendable {
    /// The live base URL of each API sent through (`unsplash` → `https://api.unsplash.com`).
    let bases: [String: String]
    /// The live transport, one request at a time (recording is a session's worth, not a load).
    private let transport: Transport
    private let lock = NSLock()

    /// `transport` records what it sends when it is a recording one.
    package init(bases: [String: String], transport: Transport) {
        self.bases = bases
        self.transport = transport
    }

    /// The request headers an API's answer may depend on; the rest (cookies, the client's own)
    /// stay at the proxy.
    static let forwarded: Set<String> = ["authorization", "accept", "accept-version", "accept-language"]

    /// The live answer to a request for `api`'s `path`, recorded into `recordings`; nil when
    /// this API is not sent through. A network failure is thrown.
    func answer(_ request: ServedRequest, api: String, path: String, recordings: ServedRecordings)
        throws(NetworkError) -> HTTPResponse?
    {
        guard let base = bases[api], let method = HTTPRequest.Method(rawValue: request.method) else { return nil }
        let query = request.query.map {
            QueryItem($0.name, $0.value, isSecret: ServedRequest.isSecret(queryName: $0.name))
        }
        let headers = request.headers.filter { Self.forwarded.contains($0.name.lowercased()) }.map {
            HTTPHeader($0.name, $0.value, isSecret: $0.name.lowercased() == "authorization")
        }
        let live = HTTPRequest(method, api: api, base: base, path: path, query: query, headers: headers)
        return try send(live, recordings: recordings)
    }

    /// A picture at `url`, fetched live and recorded; nil when nothing is sent through.
    func picture(_ url: String, recordings: ServedRecordings) throws(NetworkError) -> HTTPResponse? {
        guard !bases.isEmpty else { return nil }
        return try send(HTTPRequest.get(url: url), recordings: recordings)
    }

    private func send(_ request: HTTPRequest, recordings: ServedRecordings) throws(NetworkError) -> HTTPResponse {
        lock.lock()
        defer { lock.unlock() }
        let response = try transport.send(request)
        // What replays it from now on: the answer as the recording keeps it (secrets out).
        let recording = Recording(request: request, response: response)
        recordings.add(recording)
        return recording.response
    }
}
