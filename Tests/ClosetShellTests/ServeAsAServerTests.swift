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

    // MARK: item 3, many clients at once

    /// A product made through the server (a real, non-deterministic password hash: 600,000 rounds).
    static func postProduct(_ base: String, password: String = "1234") throws -> Int {
        let boundary = "b0undary"
        var parts: [MultipartPart] = [
            ("title", "Lamp"), ("descriptions", "A desk lamp"), ("price", "100"), ("currency", "KRW"), ("stock", "3"),
            ("password", password),
        ].map { MultipartPart.field($0.0, $0.1) }
        let picture = FileManager.default.contents(atPath: ServeTests.fixtures + "/coat.jpg") ?? Data()
        parts.append(.file("images[]", filename: "0.jpeg", contentType: "image/jpeg", data: picture))
        let (bytes, type) = HTTPBody.multipart(parts).encoded(boundary: boundary)
        let head =
            "POST /item HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: \(type)\r\nContent-Length: \(bytes.count)\r\n\r\n"
        let reply = try ServeTests.exchange(base, Array(head.utf8) + [UInt8](bytes))
        let body = reply.components(separatedBy: "\r\n\r\n").last ?? ""
        return ServeTests.json(body)["id"] as? Int ?? 0
    }

    static func request(_ base: String, _ method: String, _ path: String, body: String = "") throws -> (
        status: Int, body: String, seconds: Double
    ) {
        let started = Date()
        let reply = try ServeTests.exchange(
            base,
            Array(
                "\(method) \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                    .utf8))
        return (
            Int(reply.dropFirst("HTTP/1.1 ".count).prefix(3)) ?? 0,
            reply.components(separatedBy: "\r\n\r\n").last ?? "",
            Date().timeIntervalSince(started)
        )
    }

    /// Reads run on the store's readers: a write waiting for the store's lock (held by another
    /// process) holds no GET; when the busy timeout runs out, the write gets the API's own
    /// error shape, not plain text.
    @Test func readsNeverWaitForAWriteAndABusyStoreAnswersInTheAPIsShape() throws {
        let store = ServeTests.newStore()
        defer { try? FileManager.default.removeItem(atPath: store) }
        let server = try ServeProcess(
            store: store, options: ["--deterministic", "--busy-timeout", "3"], serveArguments: ["--quiet"])
        defer { server.stop() }
        let base = server.baseURL
        #expect(try Self.postProduct(base) == 1)
        // Another process holds the store's write lock (as a long `run` would).
        let folder = open(store, O_RDONLY | O_DIRECTORY)
        defer { close(folder) }
        #expect(flock(folder, LOCK_EX) == 0)
        let write = Thread.detachNewThreadWithResult {
            try? Self.request(base, "DELETE", "/item/1", body: "{\"password\":\"1234\"}")
        }
        usleep(300_000)
        for path in ["/items/1", "/item/1"] {
            let read = try Self.request(base, "GET", path)
            #expect(read.status == 200 && read.seconds < 1.5, "\(path): \(read)")
        }
        let busy = write.wait() ?? nil
        #expect(busy?.status == 503, "\(String(describing: busy))")
        #expect(busy?.body.hasPrefix("{\"error\":true,\"reason\":\"the store cannot be used now") == true)
        flock(folder, LOCK_UN)
        // Nothing of it was done; with the lock free, it is.
        #expect(try Self.request(base, "GET", "/item/1").status == 200)
        #expect(try Self.request(base, "DELETE", "/item/1", body: "{\"password\":\"1234\"}").status == 200)
        #expect(server.stop() == 0)
    }

    /// Password checks run on the writes' worker, never the I/O thread, and one address gets a
    /// small budget of failures a minute: then 429 in the API's shape, with no hashing; reads
    /// go on meanwhile.
    @Test func wrongPasswordsAreBudgetedPerAddressAndHoldNoRead() throws {
        let store = ServeTests.newStore()
        defer { try? FileManager.default.removeItem(atPath: store) }
        // Not deterministic: real hashes of 600,000 rounds, each check a fraction of a second.
        let server = try ServeProcess(
            store: store, options: [], serveArguments: ["--quiet", "--password-failures", "3"])
        defer { server.stop() }
        let base = server.baseURL
        let id = try Self.postProduct(base)
        #expect(id == 1)
        let guesses = (0..<3).map { n in
            Thread.detachNewThreadWithResult {
                try? Self.request(base, "DELETE", "/item/1", body: "{\"password\":\"guess\(n)\"}")
            }
        }
        usleep(100_000)
        let read = try Self.request(base, "GET", "/items/1")
        #expect(read.status == 200 && read.seconds < 0.5, "\(read)")
        for guess in guesses { #expect((guess.wait() ?? nil)?.status == 404) }
        // The budget is spent: refused at once, in the API's shape, with Retry-After.
        let refused = try Self.request(base, "DELETE", "/item/1", body: "{\"password\":\"1234\"}")
        #expect(refused.status == 429 && refused.seconds < 0.3, "\(refused)")
        #expect(refused.body.hasPrefix("{\"error\":true,\"reason\":\"too many wrong passwords"))
        #expect(try Self.request(base, "GET", "/item/1").status == 200)
        #expect(server.stop() == 0)
    }
}

extension Thread {
    /// A value made on a thread of its own, waited for.
    final class Result<Value>: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var value: Value?
        func wait() -> Value? {
            done.wait()
            return value
        }
    }

    static func detachNewThreadWithResult<Value>(_ body: @escaping @Sendable () -> Value) -> Result<Value> {
        let result = Result<Value>()
        Thread.detachNewThread {
            result.value = body()
            result.done.signal()
        }
        return result
    }
}
