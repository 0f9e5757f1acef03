import ClosetCore
import ClosetLanguage
import ClosetServing
import Foundation

/// `closet serve [--host <h>] [--port <n>] [--quiet] ... [--replay <folder>]... [<pack>...]`
/// (`usage` lists them all).
package struct ServeOptions: Equatable, Sendable {
    package var host = "127.0.0.1"
    package var port = 8080
    package var quiet = false
    /// Seconds a request may take to arrive from its first byte (slow clients get a 408).
    package var requestTimeout: Double = 10
    /// Seconds an idle keep-alive connection (or one that reads nothing of its answer) is kept.
    package var idleTimeout: Double = 30
    package var maximumConnections = 1024
    package var maximumConnectionsPerAddress = 256
    /// Request bytes held at once across every connection (bodies arriving); past it, 503.
    package var maximumHeldBytes = 256 << 20
    /// A request's body (413 past it) and its line and headers (431 past it).
    package var maximumBodyBytes = 32 << 20
    package var maximumHeaderBytes = 16 << 10
    /// Bytes of GET answers kept for the next identical request while the store is unchanged
    /// (`ServedReadCache`); 0 keeps none.
    package var answerCacheBytes = 32 << 20
    /// Worker threads for reads (each with a reader of its own); writes have one.
    package var workers = 2
    /// Failed password checks one client address may make in a minute before its writes get 429.
    package var passwordFailuresPerMinute = 10
    /// `--public-url`: the base of every absolute URL in answers (a proxy in front).
    package var publicURL: String?
    /// Faults on purpose: each answer held back this many milliseconds (a range: drawn in it),
    /// failed with the API's own error, or cut off mid-body, at these rates; drawn from `seed`.
    package var latency: ClosedRange<Int>?
    package var failRate: Double = 0
    package var dropRate: Double = 0
    package var seed: UInt64 = 0
    /// `--log <file.jsonl>`: one line per exchange, secrets redacted, bodies never written.
    package var log: String?
    /// `--replay <folder>`, any number of times: recordings the replaying APIs answer from (the
    /// first folder's, when two hold the same request).
    package var replay: [String] = []
    /// `--through <api>=<base URL>` (or `all`, each API's real base): what no recording
    /// answers goes to the live API and is recorded (a recording proxy).
    package var through: [Through] = []
    /// `--placeholders`: a picture no recording holds is drawn from its API's answer (its size,
    /// colour and BlurHash) instead of a 404.
    package var placeholders = false
    /// `--record <folder>`: where `--through` writes what it records.
    package var record: String?
    /// `--today <yyyy-mm-dd>`: the served world's day (default: the first `--replay` folder's
    /// `today` file): the sessions' clock starts on it, and a replaying API given a day
    /// relative to the client's today (KOBIS's `targetDt`) is answered as of that day.
    package var today: Date?
    /// `--token-ttl <seconds>`: how long an access token lasts.
    package var tokenLifetime = ServedTokens.standardLifetime
    /// `--expire-tokens-every <n>`: every n-th request expires every token given before it.
    package var expireTokensEvery: Int?
    /// The packs whose APIs are served; empty: every installed one that has any.
    package var packs: [String] = []
    /// `--help`: the usage and what each option does, nothing served.
    package var help = false

    package init() {}

    /// One `--through`: an API and the live base it goes to (nil: its real one).
    package struct Through: Equatable, Sendable {
        var api: String
        var base: String?
    }

    package static let usage =
        "usage: closet serve [--host <address>] [--port <n>] [--quiet] [--request-timeout <seconds>] [--idle-timeout <seconds>] [--max-connections <n>] [--max-connections-per-address <n>] [--max-held <size>] [--max-body <size>] [--max-header <size>] [--answer-cache <size>] [--workers <n>] [--password-failures <n>] [--public-url <url>] [--latency <ms>[-<ms>]] [--fail <rate>] [--drop <rate>] [--seed <n>] [--log <file.jsonl>] [--replay <folder>]... [--through <api>=<url>|all]... [--record <folder>] [--placeholders] [--today <yyyy-mm-dd>] [--token-ttl <seconds>] [--expire-tokens-every <n>] [<pack>...]"

    package static let help =
        usage + """


              --host <address>          listen there (default 127.0.0.1; another address warns: anyone who
                                        can reach it can read and change the store)
              --port <n>                the port (default 8080; 0: one the system picks, printed first)
              --quiet                   no line per request
              --request-timeout <s>     a request must arrive within this long from its first byte (default 10; 408)
              --idle-timeout <s>        an idle keep-alive connection is closed after this long (default 30)
              --max-connections <n>     connections at once (default 1024); at the cap the one waiting longest
                                        on its client is closed to make room, else 503
              --max-connections-per-address <n>
                                        connections from one address (default 256), the same way
              --max-held <size>         request bytes held at once across connections (default 256MB; 503)
              --max-body <size>         one request's body (default 32MB; 413, said from its length)
              --max-header <size>       one request's line and headers (default 16KB; 431)
              --answer-cache <size>     GET answers kept until the store changes (default 32MB; 0: none)
              --workers <n>             threads answering reads, each on its own reader (default 2; writes have one)
              --password-failures <n>   wrong passwords one address may send a minute (default 10; then 429)
              --public-url <url>        the base of the URLs answers name (default: the Host the client used)
              --latency <ms>[-<ms>]     hold each answer back that long (a range: drawn in it)
              --fail <rate>             answer that share of requests with the API's own failure
              --drop <rate>             cut that share of answers off half-way through the body
              --seed <n>                the draws of --latency, --fail and --drop (default 0)
              --log <file.jsonl>        append one line per exchange, secrets redacted
              --replay <folder>         recordings Unsplash, KOBIS, Kakao and the animal API answer from
                                        (may be repeated; the first folder wins)
              --through <api>=<url>     send what no recording answers to the live API (or all: each to
                                        its real base), record it, and answer; may be repeated
              --record <folder>         where --through writes its recordings (secrets removed)
              --placeholders            draw a picture no recording holds from its API's answer (its size,
                                        colour and BlurHash) instead of answering 404
              --today <yyyy-mm-dd>      the recorded world's day: a client's yesterday is that day's
                                        yesterday (default: the first --replay folder's today file)
              --token-ttl <seconds>     how long an access token of the community API lasts (default 900)
              --expire-tokens-every <n> every n-th request expires every token given so far (an app's
                                        token renewal, exercised)
              <pack>...                 only these packs' APIs (default: every pack that serves one)

            The market's API comes from the store; docs/serve.md says how to point each app at it.
            """

    package static func parse(_ words: [String]) throws(Options.UsageError) -> ServeOptions {
        var options = ServeOptions()
        var index = 0
        func value(_ name: String, _ inline: String?) throws(Options.UsageError) -> String {
            if let inline { return inline }
            index += 1
            guard index < words.count else { throw Options.UsageError(message: "'\(name)' needs a value") }
            return words[index]
        }
        while index < words.count {
            var word = words[index]
            var inline: String?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                inline = String(word[word.index(after: equals)...])
                word = String(word[..<equals])
            }
            switch word {
            case "--host":
                let host = try value(word, inline)
                guard !host.isEmpty, host.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                    throw Options.UsageError(message: "'--host' takes an address, not '\(host)'")
                }
                options.host = host
            case "--port":
                let text = try value(word, inline)
                guard let port = Int(text), (0...65535).contains(port) else {
                    throw Options.UsageError(message: "'--port' takes a number from 0 to 65535, not '\(text)'")
                }
                options.port = port
            case "--request-timeout":
                let text = try value(word, inline)
                guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
                    throw Options.UsageError(message: "'--request-timeout' takes seconds from 0 to 3600, not '\(text)'")
                }
                options.requestTimeout = seconds
            case "--max-connections":
                let text = try value(word, inline)
                guard let count = WholeNumber.value(text), (1...60_000).contains(count) else {
                    throw Options.UsageError(
                        message:
                            "'--max-connections' takes a number from 1 to 60000, not '\(TerminalText.visible(text))'")
                }
                options.maximumConnections = count
            case "--idle-timeout":
                let text = try value(word, inline)
                guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
                    throw Options.UsageError(message: "'--idle-timeout' takes seconds from 0 to 3600, not '\(text)'")
                }
                options.idleTimeout = seconds
            case "--max-connections-per-address", "--workers", "--password-failures", "--token-ttl",
                "--expire-tokens-every":
                let text = try value(word, inline)
                let range =
                    switch word {
                    case "--workers": 1...64
                    case "--token-ttl": 1...86_400
                    case "--expire-tokens-every": 1...1_000_000
                    default: 1...100_000
                    }
                guard let count = WholeNumber.value(text), range.contains(count) else {
                    throw Options.UsageError(
                        message:
                            "'\(word)' takes a number from \(range.lowerBound) to \(range.upperBound), not '\(TerminalText.visible(text))'"
                    )
                }
                switch word {
                case "--workers": options.workers = count
                case "--password-failures": options.passwordFailuresPerMinute = count
                case "--token-ttl": options.tokenLifetime = count
                case "--expire-tokens-every": options.expireTokensEvery = count
                default: options.maximumConnectionsPerAddress = count
                }
            case "--max-held", "--max-body", "--max-header", "--answer-cache":
                let text = try value(word, inline)
                let least = word == "--max-header" ? 1 << 10 : word == "--answer-cache" ? 0 : 1 << 20
                guard let bytes = ByteSize.parse(text), bytes >= least, bytes <= 1 << 40 else {
                    throw Options.UsageError(
                        message:
                            "'\(word)' takes a size from \(ByteSize.format(least)) to 1024GB, like \(word == "--max-header" ? "16KB" : "32MB"), not '\(TerminalText.visible(text))'"
                    )
                }
                switch word {
                case "--max-body": options.maximumBodyBytes = bytes
                case "--max-header": options.maximumHeaderBytes = bytes
                case "--answer-cache": options.answerCacheBytes = bytes
                default: options.maximumHeldBytes = bytes
                }
            case "--public-url":
                let text = try value(word, inline)
                guard text.hasPrefix("http://") || text.hasPrefix("https://"),
                    text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x22 }), !text.hasSuffix("/")
                else {
                    throw Options.UsageError(
                        message:
                            "'--public-url' takes an http:// or https:// URL without a trailing slash, not '\(TerminalText.visible(text))'"
                    )
                }
                options.publicURL = text
            case "--latency":
                let text = try value(word, inline)
                let bounds = text.split(separator: "-", maxSplits: 1).map { Int($0) }
                guard bounds.allSatisfy({ $0.map { (0...60_000).contains($0) } ?? false }),
                    let low = bounds.first ?? nil,
                    let high = bounds.last ?? nil, low <= high, !text.isEmpty
                else {
                    throw Options.UsageError(
                        message: "'--latency' takes milliseconds (0 to 60000) or a range like 50-200, not '\(text)'")
                }
                options.latency = low...high
            case "--fail", "--drop":
                let text = try value(word, inline)
                guard let rate = Double(text), rate >= 0, rate <= 1 else {
                    throw Options.UsageError(message: "'\(word)' takes a rate from 0 to 1, not '\(text)'")
                }
                if word == "--fail" { options.failRate = rate } else { options.dropRate = rate }
            case "--seed":
                let text = try value(word, inline)
                guard let seed = UInt64(text) else {
                    throw Options.UsageError(message: "'--seed' takes a whole number ≥ 0, not '\(text)'")
                }
                options.seed = seed
            case "--replay":
                let folder = try value(word, inline)
                guard !folder.isEmpty else { throw Options.UsageError(message: "'--replay' needs a folder") }
                options.replay.append(folder)
            case "--through":
                let text = try value(word, inline)
                if text == "all" {
                    options.through.append(Through(api: "all", base: nil))
                } else {
                    let parts = text.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2, parts[1].hasPrefix("http://") || parts[1].hasPrefix("https://") else {
                        throw Options.UsageError(
                            message: "'--through' takes <api>=<http(s) base URL> or all, not '\(text)'")
                    }
                    options.through.append(Through(api: String(parts[0]), base: String(parts[1])))
                }
            case "--placeholders":
                guard inline == nil else { throw Options.UsageError(message: "'--placeholders' takes no value") }
                options.placeholders = true
            case "--record":
                let folder = try value(word, inline)
                guard !folder.isEmpty else { throw Options.UsageError(message: "'--record' needs a folder") }
                options.record = folder
            case "--today":
                let text = try value(word, inline)
                guard let day = RecordedDay.parse(text) else {
                    throw Options.UsageError(message: "'--today' takes a day written 2012-01-02, not '\(text)'")
                }
                options.today = day
            case "--log":
                let path = try value(word, inline)
                guard !path.isEmpty else { throw Options.UsageError(message: "'--log' needs a file") }
                options.log = path
            case "--help", "-h":
                options.help = true
            case "--quiet":
                guard inline == nil else { throw Options.UsageError(message: "'--quiet' takes no value") }
                options.quiet = true
            default:
                guard !word.hasPrefix("-"), !word.isEmpty else {
                    throw Options.UsageError(message: "unknown option '\(word)' for serve\n" + usage)
                }
                options.packs.append(word)
            }
            index += 1
        }
        return options
    }
}
