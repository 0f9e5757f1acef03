import ClosetCore
import ClosetCrypto
import ClosetLanguage
import ClosetNetwork
import ClosetPictures
import ClosetServing
import ClosetTables
import Foundation

/// The 사랑할개 community's own API (its server was never published), answered by
/// `closet serve adoption` from the store, under `/community`: sign-up, sign-in and refresh
/// give JSON Web Tokens (`CommunityTokens`); every other route but the pictures needs
/// `Authorization: Bearer <access token>`. Every route runs the pack's own command as the
/// signed-in member (`list stories`, `add story`, `like story`, `donate`, `show profile`, ...):
/// the same keys, rules and JSON as at the prompt, and a change made there is what the next
/// request sees. Errors are `{"error":"<code>","message":"..."}` with the HTTP status.
enum CommunityService {
    static let api = ServedAPI(
        name: "community",
        routes: [
            open(["POST"], ["auth", "signup"]) { request, context, state in
                try signUp(request, context, state)
            },
            open(["POST"], ["auth", "signin"]) { request, context, state in
                signIn(request, context, state)
            },
            open(["POST"], ["auth", "refresh"]) { request, context, state in
                guard let body = object(request), let token = string(body["refreshToken"]) else {
                    return error(400, "bad_request", "the body must be JSON with a refreshToken")
                }
                do throws(CommunityTokens.Refusal) {
                    return tokens(try CommunityTokens(state.community, ids: state.ids, context: context).refresh(token))
                } catch {
                    return refused(error)
                }
            },
            signedIn(["GET"], [.word("stories")]) { member, _, request, context in
                var arguments: [(key: String, value: String)] = []
                for name in ["after", "limit"] {
                    if let value = request.query(name) { arguments.append((name, value)) }
                }
                return try run(CommandRequest(["list", "stories"], arguments: arguments, user: member), context) {
                    outcome in
                    guard case .entities(let entities) = outcome else { return nil }
                    let stories = entities.records().map { story($0, context) }
                    let next = entities.cursor?.next.map(JSONText.string) ?? "null"
                    return json(200, #"{"stories":["# + stories.joined(separator: ",") + #"],"next":"# + next + "}")
                }
            },
            signedIn(["GET"], [.word("stories"), .number("id", least: 1)]) { member, match, _, context in
                try run(
                    CommandRequest(["show", "story"], parameters: [String(match.number("id"))], user: member), context
                ) {
                    outcome in first(outcome).map { json(200, story($0, context)) }
                }
            },
            signedIn(["POST"], [.word("stories")]) { member, _, request, context in
                guard let parts = request.multipart else {
                    return error(400, "bad_request", "the body must be multipart/form-data")
                }
                return try run(try story(parts, member: member), context) { outcome in
                    first(outcome).map { json(201, story($0, context)) }
                }
            },
            signedIn(["DELETE"], [.word("stories"), .number("id", least: 1)]) { member, match, _, context in
                try run(
                    CommandRequest(["remove", "story"], parameters: [String(match.number("id"))], user: member), context
                ) { _ in HTTPResponse(status: 204) }
            },
            signedIn(["PUT", "DELETE"], [.word("stories"), .number("id", least: 1), .word("like")]) {
                member, match, request, context in
                try like(request.method == "PUT", story: match.number("id"), member: member, context)
            },
            signedIn(["POST"], [.word("stories"), .number("id", least: 1), .word("comments")]) {
                member, match, request, context in
                guard let body = object(request), let text = string(body["text"]) else {
                    return error(400, "bad_request", "the body must be JSON with a text")
                }
                let add = CommandRequest(
                    ["add", "comment"], arguments: [("story", String(match.number("id"))), ("text", text)], user: member
                )
                return try run(add, context) { outcome in
                    first(outcome).map { json(201, JSONRenderer.object($0.fields)) }
                }
            },
            signedIn(["DELETE"], [.word("comments"), .number("id", least: 1)]) { member, match, _, context in
                try run(
                    CommandRequest(["remove", "comment"], parameters: [String(match.number("id"))], user: member),
                    context
                ) { _ in HTTPResponse(status: 204) }
            },
            signedIn(["PATCH"], [.word("stories"), .number("id", least: 1)]) { member, match, request, context in
                let edit = CommandRequest(
                    ["edit", "story"], parameters: [String(match.number("id"))],
                    arguments: try arguments(request, ["title", "content", "dog"]), user: member)
                return try run(edit, context) { outcome in first(outcome).map { json(200, story($0, context)) } }
            },
            signedIn(["PATCH"], [.word("comments"), .number("id", least: 1)]) { member, match, request, context in
                let edit = CommandRequest(
                    ["edit", "comment"], parameters: [String(match.number("id"))],
                    arguments: try arguments(request, ["text"]), user: member)
                return try run(edit, context) { outcome in
                    first(outcome).map { json(200, JSONRenderer.object($0.fields)) }
                }
            },
            signedIn(["POST"], [.word("donations")]) { member, _, request, context in
                let donate = CommandRequest(
                    ["donate"], arguments: try arguments(request, ["amount", "dog", "message"]), user: member)
                return try run(donate, context) { outcome in
                    first(outcome).map { json(201, JSONRenderer.object($0.fields)) }
                }
            },
            signedIn(["GET"], [.word("profile")]) { member, _, _, context in
                try run(CommandRequest(["show", "profile"], user: member), context) { outcome in
                    first(outcome).map { json(200, JSONRenderer.object($0.fields)) }
                }
            },
            signedIn(["GET"], [.word("profiles"), .text("name")]) { member, match, _, context in
                let show = CommandRequest(["show", "profile"], arguments: [("user", match.text("name"))], user: member)
                return try run(show, context) { outcome in
                    first(outcome).map { json(200, JSONRenderer.object($0.fields)) }
                }
            },
            // Public, as image URLs are: an app's picture cache fetches them by URL, revalidating by ETag.
            ServedRoute(["GET"], [.word("community"), .word("pictures"), .text("name")]) { match, request, context in
                try picture(match.text("name"), thumbnail: false, request, context)
            },
            ServedRoute(["GET"], [.word("community"), .word("thumbnails"), .text("name")]) { match, request, context in
                try picture(match.text("name"), thumbnail: true, request, context)
            },
        ],
        error: { status, reason in error(status, code(status), reason) },
        failure: { _ in error(503, "unavailable", "the community server is unavailable (a fault on purpose)") },
        fixtures: { context in try fixtures(context) },
        // A GET's answer is the store's as its member sees it: kept for that member until the
        // store changes, once a worker has checked the member's token.
        answerVariant: { request, tokens in
            CommunityTokens.knownMember(request, tokens, now: Int(Date().timeIntervalSince1970))
        })

    /// What an app's tests read, as the session's member (`.user`, who needs an account): the
    /// story pages of ten by cursor (five at most), each story of the first page with its
    /// comments, and the member's profile.
    static func fixtures(_ context: ServedContext) throws -> [ServedFixture] {
        guard let state = context.session.state(AdoptionState.self) else { return [] }
        let member = context.session.user
        guard state.community.accounts[member] != nil else {
            throw Diagnostic(
                "adoption.fixtures-member",
                "the community's fixtures are what a member sees, and \(member) has no account: add account user=\(member) password=..., or .user one of list accounts",
                at: nil)
        }
        let token = CommunityTokens(state.community, ids: state.ids, context: context).access(for: member)
        let signedIn = [HTTPHeader("Authorization", "Bearer " + token)]
        var files: [ServedFixture] = []
        var after: Int?
        var first: [Story] = []
        for number in 1...5 {
            let query = [("limit", "10")] + (after.map { [("after", StoryCursor.make(after: $0))] } ?? [])
            files.append(
                ServedFixture("stories-\(number).json", get: "/community/stories", query: query, headers: signedIn))
            let (stories, more) = state.community.page(after: after, limit: 10)
            if number == 1 { first = stories }
            guard more, let last = stories.last else { break }
            after = last.id
        }
        files += first.map {
            ServedFixture("story-\($0.id).json", get: "/community/stories/\($0.id)", headers: signedIn)
        }
        files.append(ServedFixture("profile.json", get: "/community/profile", headers: signedIn))
        return files
    }

    // MARK: routes

    /// A route anyone may call (sign-up, sign-in, refresh), on the adoption pack's state.
    static func open(
        _ methods: [String], _ path: [String],
        _ answer: @escaping @Sendable (ServedRequest, ServedContext, AdoptionState) throws -> HTTPResponse
    ) -> ServedRoute {
        ServedRoute(methods, [.word("community")] + path.map { .word($0) }) { _, request, context in
            try withCommunity(context) { state in try answer(request, context, state) }
        }
    }

    /// A route for a signed-in member: the access token is checked first (a 401 in the API's
    /// shape), and the answer runs as the token's member.
    static func signedIn(
        _ methods: [String], _ path: [ServedRoute.Segment],
        _ answer: @escaping @Sendable (String, ServedRoute.Match, ServedRequest, ServedContext) throws -> HTTPResponse
    ) -> ServedRoute {
        ServedRoute(methods, [.word("community")] + path) { match, request, context in
            try withCommunity(context) { state in
                let member: String
                do throws(CommunityTokens.Refusal) {
                    member = try CommunityTokens(state.community, ids: state.ids, context: context)
                        .member(request.header("Authorization"))
                } catch {
                    return refused(error)
                }
                do {
                    return try answer(member, match, request, context)
                } catch let refusal as BodyRefusal {
                    return error(400, "bad_request", refusal.reason)
                }
            }
        }
    }

    static func withCommunity(_ context: ServedContext, _ answer: (AdoptionState) throws -> HTTPResponse) throws
        -> HTTPResponse
    {
        guard let state = context.session.state(AdoptionState.self) else {
            return error(500, "internal", "the adoption pack is not running on this store")
        }
        return try answer(state)
    }

    /// The feed's pictures: a cell of a two-column feed is about 195 points wide; at 3× about 600 pixels.
    static let thumbnails = ServedThumbnails(longestSide: 600)

    /// A story's picture by its stored name only (nothing else of the store), or its thumbnail.
    static func picture(_ name: String, thumbnail: Bool, _ request: ServedRequest, _ context: ServedContext) throws
        -> HTTPResponse
    {
        try withCommunity(context) { state in
            guard BlobStoreNames.isValid(name) else { return error(404, "not_found", "no such picture") }
            let read = { state.community.blobs.read(named: name) }
            guard let bytes = thumbnail ? thumbnails.bytes(named: name, stored: read) : read() else {
                return error(404, "not_found", "no such picture")
            }
            return ServedPictures.picture(bytes, for: request)
        }
    }

    /// POST /community/auth/signup `{"name","password"}`: `add account`, then the first tokens.
    static func signUp(_ request: ServedRequest, _ context: ServedContext, _ state: AdoptionState) throws
        -> HTTPResponse
    {
        guard let body = object(request), let name = string(body["name"]), let password = string(body["password"])
        else { return error(400, "bad_request", "the body must be JSON with a name and a password") }
        let add = CommandRequest(["add", "account"], arguments: [("user", name), ("password", password)])
        return try run(add, context) { _ in
            tokens(CommunityTokens(state.community, ids: state.ids, context: context).issue(for: name), status: 201)
        }
    }

    /// POST /community/auth/signin `{"name","password"}`: a wrong name or password is one 401
    /// (which of them is not said), counted against the client's address as the market's are.
    static func signIn(_ request: ServedRequest, _ context: ServedContext, _ state: AdoptionState) -> HTTPResponse {
        guard let body = object(request), let name = string(body["name"]), let password = string(body["password"])
        else { return error(400, "bad_request", "the body must be JSON with a name and a password") }
        // An unknown name costs what a wrong password does: the answer's time does not say
        // which names are members.
        let stored = state.community.accounts[name].map { PasswordHash(storedText: $0.passwordHash) }
        guard (stored ?? state.decoyHash).matches(password), stored != nil else {
            context.passwordRefused()
            return error(401, "invalid_credentials", "no member has that name and password")
        }
        return tokens(CommunityTokens(state.community, ids: state.ids, context: context).issue(for: name))
    }

    /// PUT and DELETE /community/stories/{id}/like: idempotent, as a client retrying expects
    /// (`like story` and `unlike story` run only when they change something).
    static func like(_ liking: Bool, story id: Int, member: String, _ context: ServedContext) throws -> HTTPResponse {
        guard let state = context.session.state(AdoptionState.self), state.community.stories[id] != nil else {
            return error(404, "not_found", "no story has id \(id)")
        }
        let likes = { state.community.likes[LikeTable.key(of: Like(story: id, user: member))] != nil }
        if likes() != liking {
            let words = liking ? ["like", "story"] : ["unlike", "story"]
            if let refusal = try failure(of: CommandRequest(words, parameters: [String(id)], user: member), context) {
                return refusal
            }
        }
        return json(
            200, #"{"story":\#(id),"likes":\#(state.community.likeCount(id)),"liked":\#(likes() ? "true" : "false")}"#)
    }

    /// A story's form as `add story` by the member: `title`, `content`, `dog` and up to five
    /// `images[]` files, each compressed as the app compresses an upload (`UploadPicture`: a
    /// JPEG of about 300 KB); a file that is not a picture goes to the command as it came, and
    /// the command refuses it in its own words.
    static func story(_ parts: [MultipartPart], member: String) throws(BodyRefusal) -> CommandRequest {
        var request = CommandRequest(["add", "story"], user: member)
        for name in ["title", "content", "dog"] {
            if let text = parts.text(name) { request.arguments.append((name, text)) }
        }
        // More than five: the command refuses them, none is worth compressing first.
        let many = parts.filter { $0.name == "images[]" && $0.filename != nil }.count > 5
        try request.attach(parts, field: "images[]", as: "image") { (index, bytes) throws(BodyRefusal) in
            guard !many, let info = try? ImageHeader.inspect(bytes) else { return bytes }
            do throws(UploadPictureError) {
                return try UploadPicture.jpeg(bytes, info)
            } catch {
                throw BodyRefusal(reason: "images[\(index)]: " + error.message)
            }
        }
        return request
    }

    // MARK: commands

    /// Runs a command in the request's transaction: its outcome made into the answer, or its
    /// refusal in the API's shape.
    static func run(
        _ command: CommandRequest, _ context: ServedContext, _ answer: (Outcome) throws -> HTTPResponse?
    ) throws -> HTTPResponse {
        let outcome: Outcome
        do throws(CommandFailure) {
            outcome = try context.session.run(command)
        } catch {
            return try refusal(error, context)
        }
        return try answer(outcome) ?? error(500, "internal", "the command gave no answer")
    }

    /// A command's refusal as the API's answer; nil when it ran.
    static func failure(of command: CommandRequest, _ context: ServedContext) throws -> HTTPResponse? {
        do throws(CommandFailure) {
            _ = try context.session.run(command)
            return nil
        } catch {
            return try refusal(error, context)
        }
    }

    static func refusal(_ failure: CommandFailure, _ context: ServedContext) throws -> HTTPResponse {
        switch failure.id {
        case "adoption.no-such": return error(404, "not_found", failure.message)
        case "adoption.not-author": return error(403, "forbidden", failure.message)
        case "adoption.account-exists": return error(409, "name_taken", failure.message)
        case "store.failed": throw StoreError(failure.message)
        default:
            let message = failure.key.map { "\($0): " + failure.message } ?? failure.message
            return error(400, "bad_request", message)
        }
    }

    // MARK: answers

    static func first(_ outcome: Outcome) -> Record? {
        guard case .entities(let entities) = outcome else { return nil }
        return entities.records().first
    }

    /// A story as the prompt's JSON gives it, its pictures' names made URLs of this server.
    static func story(_ record: Record, _ context: ServedContext) -> String {
        let fields = record.fields.map { field in
            guard field.name == "images", case .list(let names) = field.value else { return field }
            return Field(
                field.name,
                .list(
                    names.map { name in
                        guard case .text(let name) = name else { return name }
                        return .text(context.baseURL + "/community/pictures/" + name)
                    }))
        }
        return JSONRenderer.object(fields)
    }

    static func tokens(_ pair: CommunityTokens.Pair, status: Int = 200) -> HTTPResponse {
        json(
            status,
            #"{"user":"# + JSONText.string(pair.user) + #","accessToken":"# + JSONText.string(pair.access)
                + #","refreshToken":"# + JSONText.string(pair.refresh) + #","tokenType":"Bearer","expiresIn":"#
                + String(pair.expiresIn) + "}")
    }

    static func refused(_ refusal: CommunityTokens.Refusal) -> HTTPResponse {
        var response = error(401, refusal.code, refusal.message)
        response.headers.append(HTTPHeader("WWW-Authenticate", #"Bearer error="invalid_token""#))
        return response
    }

    /// The body's JSON object, by key (the last of a key given twice); nil when it is not one.
    static func object(_ request: ServedRequest) -> [String: JSONValue]? {
        guard case .object(let pairs)? = try? JSONReader.value([UInt8](request.body)) else { return nil }
        return Dictionary(pairs, uniquingKeysWith: { $1 })
    }

    /// A JSON body's fields as a command's arguments, by the same names; a body that is not
    /// an object, or a field that is neither a string nor a number, is the client's 400.
    static func arguments(_ request: ServedRequest, _ names: [String]) throws(BodyRefusal) -> [(
        key: String, value: String
    )] {
        guard let body = object(request) else { throw BodyRefusal(reason: "the body must be a JSON object") }
        var arguments: [(key: String, value: String)] = []
        for name in names {
            guard let value = body[name] else { continue }
            guard let text = scalar(value) else { throw BodyRefusal(reason: "\(name): a string or a number") }
            arguments.append((name, text))
        }
        return arguments
    }

    /// A body a route cannot read: the client's 400 (`signedIn` answers it).
    struct BodyRefusal: Error {
        var reason: String
    }

    /// A JSON string or number as a command's argument (the command reads it as typed there).
    static func scalar(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text), .number(let text): text
        case .bool, .null, .array, .object: nil
        }
    }

    static func string(_ value: JSONValue?) -> String? {
        guard case .string(let text)? = value else { return nil }
        return text
    }

    static func json(_ status: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [HTTPHeader("Content-Type", "application/json; charset=utf-8")],
            body: Data(body.utf8))
    }

    /// The API's error shape: `{"error":"not_found","message":"no story has id 9"}`.
    static func error(_ status: Int, _ code: String, _ message: String) -> HTTPResponse {
        json(status, #"{"error":"# + JSONText.string(code) + #","message":"# + JSONText.string(message) + "}")
    }

    /// The code of a status the engine's router or server answers (a 405, a 413, ...).
    static func code(_ status: Int) -> String {
        switch status {
        case 400: "bad_request"
        case 401: "unauthorized"
        case 403: "forbidden"
        case 404: "not_found"
        case 405: "method_not_allowed"
        case 408: "request_timeout"
        case 409: "conflict"
        case 413: "too_large"
        case 429: "too_many_requests"
        case 503: "unavailable"
        default: status < 500 ? "bad_request" : "internal"
        }
    }
}
