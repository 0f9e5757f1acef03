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
    /// Makes a live transport (a network helper each): up to `mostAtOnce` are made as requests
    /// need them and lent one request at a time, so an app's feed of pictures is fetched
    /// side by side, not in a queue.
    private let makeTransport: () throws(NetworkError) -> Transport
    private var idle: [Transport] = []
    private var made = 0
    private let condition = NSCondition()
    static let mostAtOnce = 4

    /// `first` is lent first; each transport records what it sends when it is a recording one.
    package init(
        bases: [String: String], first: Transport, makeTransport: @escaping () throws(NetworkError) -> Transport
    ) {
        self.bases = bases
        self.makeTransport = makeTransport
        idle = [first]
        made = 1
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
        let transport = try borrow()
        defer { giveBack(transport) }
        let response = try transport.send(request)
        // What replays it from now on: the answer as the recording keeps it (secrets out).
        let recording = Recording(request: request, response: response)
        recordings.add(recording)
        return recording.response
    }

    /// An idle transport, a new one while fewer than `mostAtOnce` were made, else the next
    /// one given back.
    private func borrow() throws(NetworkError) -> Transport {
        condition.lock()
        defer { condition.unlock() }
        while idle.isEmpty, made >= Self.mostAtOnce { condition.wait() }
        if let transport = idle.popLast() { return transport }
        made += 1
        do {
            return try makeTransport()
        } catch {
            made -= 1
            throw error
        }
    }

    private func giveBack(_ transport: Transport) {
        condition.lock()
        idle.append(transport)
        condition.signal()
        condition.unlock()
    }
}
