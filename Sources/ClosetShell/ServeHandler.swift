import ClosetCore
import ClosetLanguage
import ClosetNetwork
import ClosetServer
import ClosetServing
import ClosetTables
import Foundation

/// What `closet serve` does with each request. On the server's I/O thread (`dispatch`), only
/// what is cheap and must keep the arrival order: the faults' draws, a failed-password budget
/// spent, a kept answer; everything else runs on a worker (`answer`), each worker with a
/// session of its own on the served store: the writes' lane has one (writes go one at a time,
/// and a deterministic session's ids and times stay in order), the reads' lane several, each
/// on its own reader of the store, so reads never wait for a write, its lock, or a password
/// check. A store in memory has one session, so one lane and one worker.
package final class ServeHandler: @unchecked Sendable {
    let apis: [ServedAPI]
    /// Each worker's session, by lane then number (made again for a worker that met damage).
    let sessions: ServeSessions
    let recordings: ServedRecordings?
    let cache: ServedReadCache
    let log: ServeLog?
    let quiet: Bool
    let budget: PasswordBudget
    /// `--public-url`: the base every absolute URL is built from, whatever `Host` says.
    let publicURL: String?
    /// The address listened on, for a request without a `Host`.
    package var listenBase = ""
    /// Touched only on the I/O thread (draws in the order requests arrive).
    private var faults: ServeFaults
    /// The server's: a worker that met damage answers and hands its place to a new thread.
    var retire: ((HTTPServer.Answer) -> Never)?
    var retiredWorkers: () -> Int = { 0 }
    /// Past this many workers retired by damage, requests that need the store are answered
    /// 500 at once: the store wants `closet recover`, and each retired worker keeps a thread.
    static let maximumRetired = 32

    /// The lane reads go to (the last), and writes (the first).
    var readLane: Int { sessions.lanes - 1 }
    static let writeLane = 0
    /// The served world's day (`--today`), which the replaying APIs answer as of.
    let today: Date?
    /// `--through`: the live APIs what no recording answers is sent to (and recorded).
    let through: ServedThrough?
    /// `--placeholders`.
    let placeholders: Bool
    /// `--token-ttl` and `--expire-tokens-every`; the requests counted and the second every
    /// token before it expired, touched only on the I/O thread.
    let tokenLifetime: Int
    let expireTokensEvery: Int?
    private var requestsCounted = 0
    private var tokensExpiredBefore: Int?

    package init(
        apis: [ServedAPI], sessions: ServeSessions, recordings: ServedRecordings?, cache: ServedReadCache,
        log: ServeLog?, options: ServeOptions, today: Date? = nil, through: ServedThrough? = nil
    ) {
        self.today = today
        self.through = through
        placeholders = options.placeholders
        tokenLifetime = options.tokenLifetime
        expireTokensEvery = options.expireTokensEvery
        self.apis = apis
        self.sessions = sessions
        self.recordings = recordings
        self.cache = cache
        self.log = log
        quiet = options.quiet
        budget = PasswordBudget(perMinute: options.passwordFailuresPerMinute)
        publicURL = options.publicURL
        faults = ServeFaults(options)
    }

    static func isRead(_ request: ServedRequest) -> Bool { request.method == "GET" || request.method == "HEAD" }

    // MARK: the I/O thread

    package func dispatch(_ request: ServedRequest) -> HTTPServer.Work {
        let started = ProcessHost.monotonicNow()
        let draw = faults.isNone ? ServeFaults.Draw() : faults.draw()
        let base = baseURL(for: request)
        if let every = expireTokensEvery {
            requestsCounted += 1
            if requestsCounted % every == 0 { tokensExpiredBefore = Int(Date().timeIntervalSince1970) }
        }
        let tokens = ServedTokens(lifetime: tokenLifetime, expiredBefore: tokensExpiredBefore)
        if draw.fail {
            // Instead of running it: nothing of it is done.
            let response =
                apis.lazy.compactMap { $0.failure(request) }.first
                ?? HTTPResponse.text("failed on purpose (--fail)\n", status: 500)
            return .answer(finish(request, response, started: started, draw: draw))
        }
        // An answer that depends on who asks is given from the kept only to the same asker.
        let variant = self.variant(of: request, tokens)
        if let variant, let kept = cache.kept(for: request, baseURL: base, variant: variant) {
            // A kept picture still honours the request's If-None-Match (status and headers
            // decide it; the body is in the kept bytes).
            let response = ServedPictures.conditional(request, kept.head)
            var answer = finish(request, response, started: started, draw: draw)
            // Unchanged: written as the worker that kept it wrote it (its body is there only).
            if response.status == kept.head.status { answer.wired = kept.wired }
            return .answer(answer)
        }
        if retiredWorkers() >= Self.maximumRetired {
            let response = error(
                500, "the store is damaged (\(Self.maximumRetired) requests met damage); run closet check", request)
            return .answer(finish(request, response, started: started, draw: draw))
        }
        if !Self.isRead(request), let refused = budget.admit(request.client, now: started) {
            let seconds = Int(refused.seconds.rounded(.up))
            let why =
                refused.guessing
                ? "too many wrong passwords from \(request.client)"
                : "too many writes at once from \(request.client)"
            var response = error(429, "\(why); try again in \(seconds) s", request)
            response.headers.append(HTTPHeader("Retry-After", String(seconds)))
            return .answer(
                finish(
                    request, response, started: started, draw: draw, hold: refused.guessing ? Self.guessingHold : 0))
        }
        let lane = Self.isRead(request) ? readLane : Self.writeLane
        return .run(lane: lane) { [self] worker in
            let session: Session
            do {
                session = try sessions.session(for: worker)
            } catch {
                if !Self.isRead(request) { budget.finished(request.client, refused: false, now: started) }
                return finish(
                    request, self.error(500, "the store cannot be opened: \(error)", request), started: started,
                    draw: draw)
            }
            // Damage met deep inside a read cannot unwind: this request is answered 500, the
            // session is dropped (its write lock let go), and a new thread takes this one's place.
            UnreadableRow.threadHandler = { [self] what in
                ClosetCommand.complain(
                    "closet serve: store '\(session.store.location)' is damaged: \(what); \(request.method) \(request.path) answered 500; 'closet check \(session.store.location)' says what else is, 'closet recover' copies what is intact"
                )
                session.store.abandon()
                sessions.discard(worker)
                if !Self.isRead(request) { budget.finished(request.client, refused: false, now: started) }
                let response = self.error(500, "the store is damaged: \(what); run closet check", request)
                let answer = finish(request, response, started: started, draw: draw)
                guard let retire else { exit(ClosetCommand.ExitStatus.store.rawValue) }
                retire(answer)
            }
            let made = fresh(request, session: session, baseURL: base, tokens: tokens)
            if !Self.isRead(request) {
                budget.finished(request.client, refused: made.passwordRefused, now: ProcessHost.monotonicNow())
            }
            return finish(request, made.response, started: started, draw: draw, cut: made.cut, note: made.note)
        }
    }

    /// The base absolute URLs are built from: `--public-url`, else the `Host` the client
    /// used (so a phone on the LAN gets URLs it can follow), else the address listened on.
    func baseURL(for request: ServedRequest) -> String {
        if let publicURL { return publicURL }
        if let host = request.header("Host"), Self.isPlainHost(host) { return "http://" + host }
        return listenBase
    }

    /// A host and port as a client may name them: letters, digits, `.-:`, brackets (IPv6);
    /// anything else (a forged header meant to land in an answer) is not used.
    static func isPlainHost(_ host: String) -> Bool {
        !host.isEmpty && host.utf8.count <= 255
            && host.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x3A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D
                    || $0 == 0x2E || $0 == 0x5B || $0 == 0x5D
            }
    }

    /// The server's own refusals (408, 413, 431, 503) in the shape of the API the path is
    /// for; plain text where none claims it.
    package func refusal(_ status: Int, _ reason: String, _ target: (method: String, path: String)?) -> HTTPResponse {
        if let target, let api = apis.first(where: { $0.claims(target.method, target.path) }) {
            return api.error(status, reason)
        }
        return HTTPResponse.text(reason + "\n", status: status)
    }

    func error(_ status: Int, _ reason: String, _ request: ServedRequest) -> HTTPResponse {
        refusal(status, reason, (request.method, request.path))
    }

    // MARK: a worker

    /// What a worker made of a request.
    struct Made {
        var response: HTTPResponse
        /// The recorded failure it breaks off as.
        var cut: ServedCut?
        /// Whether a password check failed.
        var passwordRefused = false
        /// A line said under the request's (a near miss).
        var note: String?
    }

    /// The answer, made in one transaction of the worker's session.
    func fresh(_ request: ServedRequest, session: Session, baseURL: String, tokens: ServedTokens)
        -> Made
    {
        let context = ServedContext(
            session: session, baseURL: baseURL, recordings: recordings, today: today,
            through: through, placeholders: placeholders, tokens: tokens)
        var response: HTTPResponse
        var answering: ServedAPI?
        var cacheable = false
        let madeAt = Self.isRead(request) ? cache.looked() : nil
        do {
            response =
                try session.serving {
                    for api in apis {
                        answering = api
                        if let response = try api.answer(request, context) {
                            cacheable = api.readsOnlyTheStore || api.answerVariant != nil
                            return response
                        }
                    }
                    answering = nil
                    return nil
                }
                ?? HTTPResponse.text("no API served here answers \(request.path)\n", status: 404)
        } catch let cut as ServedCut {
            // Something of a body to cut half-way through: a client sees an answer break off.
            let body = Data(("{" + String(repeating: " ", count: 62) + "}").utf8)
            return Made(
                response: HTTPResponse(
                    status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: body), cut: cut)
        } catch let error as StoreError {
            response = shaped(answering, 503, "the store cannot be used now: \(error.description)", request)
        } catch let error as any LocalizedMessage {
            response = shaped(answering, 400, error.message, request)
        } catch {
            response = shaped(answering, 500, "\(error)", request)
        }
        // Asked again now the answer has run: a token it checked is known.
        if cacheable, let variant = variant(of: request, tokens) {
            cache.keep(response, for: request, baseURL: baseURL, variant: variant, madeAt: madeAt)
        }
        return Made(response: response, passwordRefused: context.wasPasswordRefused, note: context.noted)
    }

    /// Who a request's kept answer is kept under: "" for an API whose answers depend on the
    /// store alone, the asker for one that says (`ServedAPI.answerVariant`), nil when it cannot
    /// be said here (nothing is given from the kept, nothing kept).
    func variant(of request: ServedRequest, _ tokens: ServedTokens) -> String? {
        guard let api = apis.first(where: { $0.claims(request.method, request.path) }) else { return "" }
        guard let personal = api.answerVariant else { return api.readsOnlyTheStore ? "" : nil }
        return personal(request, tokens).map { api.name + ":" + $0 }
    }

    func shaped(_ api: ServedAPI?, _ status: Int, _ reason: String, _ request: ServedRequest) -> HTTPResponse {
        api?.error(status, reason) ?? error(status, reason, request)
    }

    /// How long a guesser's `429` is held before it is written: on its connection, by the I/O
    /// thread's timer, no worker. Answered at once, fifty guessing clients sent thousands of
    /// requests a second, and the server's time for them (accepting, reading, refusing, closing)
    /// came out of everyone else's reads; held, each of their connections asks about once a
    /// second (nginx's `limit_req` delays what exceeds a rate the same way).
    static let guessingHold: Double = 1

    /// The line said and logged for an exchange, and the server's answer; `hold`: seconds the
    /// answer waits before it is written, beside `--latency`'s.
    func finish(
        _ request: ServedRequest, _ response: HTTPResponse, started: Double, draw: ServeFaults.Draw,
        cut: ServedCut? = nil, note: String? = nil, hold: Double = 0
    ) -> HTTPServer.Answer {
        let delay = draw.delay + hold
        if !quiet || log != nil {
            let milliseconds = (ProcessHost.monotonicNow() - started) * 1000 + delay * 1000
            // A recorded failure given as recorded is said as a fault is.
            let names = draw.names + (cut.map { [$0 == .midBody ? "cut mid-body" : "closed unanswered"] } ?? [])
            if !quiet {
                let faults = names.isEmpty ? "" : " (" + names.joined(separator: ", ") + ")"
                ServeCommand.say(
                    "\(request.method) \(request.path) \(response.status) \(String(format: "%.1f", milliseconds)) ms"
                        + faults)
                // The recording's key is text of the request's own: shown, never sent raw.
                if let note { ServeCommand.say("  " + TerminalText.visible(note)) }
            }
            log?.write(request, status: response.status, milliseconds: milliseconds, faults: names, note: note)
        }
        return HTTPServer.Answer(
            response, dropMidBody: draw.drop || cut == .midBody, closeWithoutAnswer: cut == .withoutAnswer,
            delay: delay)
    }
}
