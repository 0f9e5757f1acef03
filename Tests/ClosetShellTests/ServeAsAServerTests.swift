import ClosetCore
import ClosetNetwork
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 40: `closet serve` as a server a team and a phone lean on — process tests against a
/// real `closet serve`.
@Suite(.serialized) struct ServeAsAServerTests {
    /// Item 2: every numeric path parameter of every route, swept; each answer is the API's
    /// error shape (400 out of range or malformed, 404 for an id no product has), and the
    /// server answers the next request.
    @Test func integersInPathsNeverTrap() throws {
        let store = ServeTests.newStore()
        defer { try? FileManager.default.removeItem(atPath: store) }
        let server = try ServeProcess(store: store, serveArguments: ["--quiet"])
        defer { server.stop() }
        let base = server.baseURL
        for value in IntegerSweepTests.sweep {
            for (method, path) in [
                ("GET", "/items/\(value)"), ("GET", "/item/\(value)"), ("PATCH", "/item/\(value)"),
                ("DELETE", "/item/\(value)"),
            ] {
                let body = method == "DELETE" ? "{\"password\":\"1\"}" : ""
                let type = method == "PATCH" ? "multipart/form-data; boundary=b" : "application/json"
                let reply = try ServeTests.exchange(
                    base,
                    Array(
                        "\(method) \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                            .utf8))
                let status = Int(reply.dropFirst("HTTP/1.1 ".count).prefix(3)) ?? 0
                let json = reply.components(separatedBy: "\r\n\r\n").last ?? ""
                if value == "007" || value == "2147483648" {
                    // Well formed: no such page is an empty page, no such item a 404.
                    #expect(
                        (path.hasPrefix("/items/") && status == 200) || status == 404 || status == 400,
                        "\(method) \(path): \(reply)")
                } else if value == "0" && path.hasPrefix("/items/") || value != "0" {
                    #expect(status == 400 || status == 404, "\(method) \(path): \(reply)")
                }
                #expect(status == 200 || json.hasPrefix("{\"error\":true,\"reason\":"), "\(method) \(path): \(reply)")
            }
        }
        #expect(try ServeTests.curl([base + "/items/1"]).status == 200)
        #expect(server.stop() == 0)
    }
}
