import ClosetShell
import Foundation
import TestSupport
import Testing

/// Issue 46: the 사랑할개 community API driven by a client written as the app's
/// (`Tests/Network/community_client.py`, Python's http.client): every route, the tokens'
/// refusals, rotation, expiry and expiry on purpose.
@Suite(.serialized) struct CommunityServeTests {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let client = tests.appendingPathComponent("Network/community_client.py").path
    static let fixtures = tests.appendingPathComponent("Golden/images/fixtures").path

    /// The client's run against a server started with `serveArguments`, and the server's output.
    static func drive(_ mode: String, serveArguments: [String] = []) throws -> (
        out: String, err: String, server: String
    ) {
        let store = NSTemporaryDirectory() + "closet-community-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: store) }
        let server = try ServeProcess(store: store, serveArguments: serveArguments + ["adoption"])
        let address = server.baseURL.dropFirst("http://".count).split(separator: ":")
        let run = try ChildProcess.run(
            "/usr/bin/env", ["python3", client, String(address[0]), String(address[1]), fixtures, mode])
        server.stop()
        return (run.out, run.err, server.text)
    }

    @Test func everyRouteAnswersAsTheAppExpects() throws {
        let log = NSTemporaryDirectory() + "closet-community-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let run = try Self.drive("routes", serveArguments: ["--log", log])
        #expect(run.out.hasSuffix("all routes answered\n"), "\(run.out)\n\(run.err)")
        // The lines on the terminal and the journal name routes, never a token or a password.
        #expect(run.server.contains("POST /community/auth/signin 200"))
        #expect(!run.server.contains("dog lover 1") && !run.server.contains("eyJ"), "\(run.server)")
        let journal = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(journal.contains(#""path":"/community/auth/refresh""#))
        #expect(!journal.contains("dog lover 1") && !journal.contains("eyJ") && !journal.contains("Bearer"))
    }

    @Test func theTokenOptionsAreReadAndChecked() throws {
        let options = try ServeOptions.parse(["--token-ttl", "60", "--expire-tokens-every=5"])
        #expect(options.tokenLifetime == 60 && options.expireTokensEvery == 5)
        #expect(try ServeOptions.parse([]).tokenLifetime == 900)
        for refused in [
            ["--token-ttl", "0"], ["--token-ttl", "86401"], ["--expire-tokens-every", "x"], ["--token-ttl"],
        ] {
            #expect(throws: Options.UsageError.self) { try ServeOptions.parse(refused) }
        }
    }

    /// Random methods, paths, tokens and bodies (seeded, bounded): each is answered, in the API's
    /// error shape when refused, and the server goes on.
    @Test func hostileRequestsAreAnsweredAndHarmNothing() throws {
        let run = try Self.drive("hostile")
        #expect(run.out.hasSuffix("hostile requests answered\n"), "\(run.out)\n\(run.err)")
    }

    /// `--fail` answers the community's routes in its own error shape, running nothing.
    @Test func aFailureOnPurposeHasTheAPIsShape() throws {
        let store = NSTemporaryDirectory() + "closet-community-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: store) }
        let server = try ServeProcess(store: store, serveArguments: ["--fail", "1", "adoption"])
        let run = try ChildProcess.run(
            "/usr/bin/curl",
            [
                "-s", "-w", "\n%{http_code}", "-H", "Content-Type: application/json", "-d",
                #"{"name":"민지","password":"dog lover 1"}"#, server.baseURL + "/community/auth/signup",
            ])
        #expect(run.out.hasSuffix("\n503") && run.out.hasPrefix(#"{"error":"unavailable","#), "\(run.out)")
        server.stop()
        // Nothing of it was done: no account.
        let accounts = try ChildProcess.run(
            BuiltProducts.closet, ["--store", store, "--format", "json", "-c", "list accounts"])
        #expect(accounts.out == "[]\n", "\(accounts.out)\(accounts.err)")
    }

    @Test func anAccessTokenExpiresAfterItsLifetime() throws {
        let run = try Self.drive("expiry", serveArguments: ["--token-ttl", "1"])
        #expect(run.out.hasSuffix("tokens expire\n"), "\(run.out)\n\(run.err)")
    }

    @Test func everyTokenExpiresOnPurposeEveryNRequests() throws {
        let run = try Self.drive("expire-every", serveArguments: ["--expire-tokens-every", "4"])
        #expect(run.out.hasSuffix("tokens expired on purpose\n"), "\(run.out)\n\(run.err)")
    }
}
