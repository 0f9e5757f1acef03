import ClosetCore
import ClosetLanguage
import ClosetNetwork
import ClosetPictures
import ClosetServer
import ClosetServing
import ClosetShell
import Foundation

/// Arbitrary bytes as one connection's stream to the whole of `closet serve` (issue 40): read
/// by the request reader in pieces whose sizes the first byte picks, and every request it
/// gives answered by the server's own handler (the faults' draws, the password budget, the read
/// cache, one transaction on a session, the market's routes and their commands, the recorded
/// APIs and pictures) against a market in memory holding one product, so GETs, POSTs, PATCHes
/// and DELETEs reach real rows. Every answer must be a status from 100 to 599 that writes as
/// bytes; a trap, a hang or a leak is a request that could take down a server.
public enum ServerFuzzing {
    public static func run(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        guard size > 0 else { return 0 }
        let host = DiscardingHost()
        var configuration = SessionFactory.Configuration()
        configuration.deterministic = true
        configuration.network = .offline(reason: "(fuzzing)")
        guard
            let session = try? SessionFactory.makeSession(
                store: SessionFactory.memoryStore(), host: host, configuration),
            let sessions = try? ServeSessions(lanes: [1], make: { _ in (session, host) })
        else { fatalError("the installed packs did not start on a memory store") }
        // Product 1, to read, edit and delete (its password: 1234).
        let picture = PNGEncoder.encode(Bitmap(width: 2, height: 2, pixels: [UInt8](repeating: 200, count: 16)))
        let seeded = try? session.serving {
            try session.run(
                CommandRequest(
                    ["add", "product"],
                    arguments: [
                        ("title", "Lamp"), ("price", "100"), ("currency", "KRW"), ("stock", "3"),
                        ("description", "A lamp"), ("image", "seed.png"), ("password", "1234"),
                    ], attachments: ["seed.png": picture]))
        }
        precondition(seeded != nil, "the seed product was refused")
        var options = ServeOptions()
        options.quiet = true
        // The faults too, from the first byte: latency only marks the answer (nothing waits here).
        options.failRate = data[0] & 0x20 != 0 ? 0.2 : 0
        options.dropRate = data[0] & 0x40 != 0 ? 0.2 : 0
        let apis = InstalledPacks.installed.flatMap(\.apis)
        let handler = ServeHandler(
            apis: apis + [ServedPictures.api(asking: apis)], sessions: sessions, recordings: nil,
            cache: ServedReadCache(storeFolder: nil), log: nil, options: options)
        handler.listenBase = "http://127.0.0.1:8080"

        var limits = RequestReader.Limits()
        limits.headerBytes = 2048
        limits.bodyBytes = 8192
        var reader = RequestReader(limits: limits)
        let bytes = UnsafeBufferPointer(start: data + 1, count: size - 1)
        let piece = Int(data[0] % 16) + 1
        var at = 0
        while at < bytes.count {
            let end = min(bytes.count, at + piece)
            reader.feed(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[at..<end])))
            at = end
            reading: while true {
                switch reader.next() {
                case .needMore: break reading
                case .refused(let refusal):
                    precondition((400...599).contains(refusal.status))
                    check(handler.refusal(refusal.status, refusal.reason, reader.currentTarget))
                    return 0
                case .request(var request, _):
                    request.client = "127.0.0.1"
                    switch handler.dispatch(request) {
                    case .answer(let answer): check(answer.response)
                    case .run(_, let body): check(body(HTTPServer.Worker(lane: 0, index: 0)).response)
                    }
                }
            }
        }
        return 0
    }

    static func check(_ response: HTTPResponse) {
        precondition((100...599).contains(response.status), "status \(response.status)")
        precondition(!HTTPServer.wire(response, keepAlive: true).isEmpty)
    }
}
