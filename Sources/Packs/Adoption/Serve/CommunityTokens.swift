import ClosetCore
import ClosetCrypto
import ClosetNetwork
import ClosetServing
import Foundation

/// The community API's tokens: an access token (`--token-ttl`, a quarter of an hour by default)
/// for every request, and a refresh token (two weeks) that gives the next pair once. Both are
/// JSON Web Tokens signed with the store's key (`TokenKey`); live refresh tokens are rows of
/// the store, so a refresh token works once, on any worker, after a restart too.
struct CommunityTokens {
    let community: Community
    let ids: IDGenerator
    let now: Int
    let policy: ServedTokens

    static let refreshLifetime = 14 * 24 * 60 * 60
    static let keyName = "community"

    /// A client's new pair of tokens, as the API answers sign-up, sign-in and refresh.
    struct Pair {
        var user: String
        var access: String
        var refresh: String
        var expiresIn: Int
    }

    /// Why a token is refused: the `error` code of the API's 401 and its words.
    struct Refusal: Error {
        var code: String
        var message: String

        static let missing = Refusal(
            code: "missing_token", message: "sign in: this route needs 'Authorization: Bearer <access token>'")
        static let expired = Refusal(code: "token_expired", message: "the token expired; refresh it")
        static let invalid = Refusal(code: "invalid_token", message: "the token is not one this server signed")
        static let reused = Refusal(
            code: "refresh_token_reused",
            message:
                "this refresh token is used up or revoked; every session of its member is signed out: sign in again")
    }

    init(_ community: Community, ids: IDGenerator, context: ServedContext) {
        self.community = community
        self.ids = ids
        now = Int(context.now.timeIntervalSince1970)
        policy = context.tokens
    }

    /// The signing key, made with the first token the store gives.
    func key() -> [UInt8] {
        if let kept = community.tokenKeys[Self.keyName] { return kept.bytes }
        var bytes: [UInt8] = []
        for _ in 0..<2 { bytes += withUnsafeBytes(of: ids.next().uuid) { Array($0) } }
        community.tokenKeys.upsert(TokenKey(id: Self.keyName, bytes: bytes))
        return bytes
    }

    func newID() -> String { ids.next().uuidString.lowercased() }

    /// A new pair for `user`; its refresh token is recorded live (and the member's expired
    /// ones are forgotten).
    func issue(for user: String) -> Pair {
        let key = key()
        let access = WebToken(subject: user, use: .access, issuedAt: now, expiresAt: now + policy.lifetime, id: newID())
        let refresh = WebToken(
            subject: user, use: .refresh, issuedAt: now, expiresAt: now + Self.refreshLifetime, id: newID())
        for stale in community.refreshTokens.rows where stale.user == user && stale.expiresAt <= now {
            community.refreshTokens.remove(stale.id)
        }
        community.refreshTokens.upsert(LiveRefreshToken(id: refresh.id, user: user, expiresAt: refresh.expiresAt))
        return Pair(
            user: user, access: access.signed(key: key), refresh: refresh.signed(key: key), expiresIn: policy.lifetime)
    }

    /// An access token alone (no refresh token is recorded): what `export fixtures` reads as.
    func access(for user: String) -> String {
        WebToken(subject: user, use: .access, issuedAt: now, expiresAt: now + policy.lifetime, id: newID())
            .signed(key: key())
    }

    /// The token's claims, checked: signed with this store's key, of this use, not expired
    /// (nor, an access token, issued before `--expire-tokens-every` last struck), its member
    /// still signed up.
    func check(_ text: String, use: WebToken.Use) throws(Refusal) -> WebToken {
        guard let kept = community.tokenKeys[Self.keyName] else { throw .invalid }
        let token: WebToken
        // A client sends the same access token with every request until it expires: its
        // signature, once checked with this key, is not checked again (a fifth of a feed page).
        if let verified = Self.verified.get(text), verified.key == kept.bytes {
            guard now < verified.token.expiresAt else { throw .expired }
            token = verified.token
        } else {
            do {
                token = try WebToken.verified(text, key: kept.bytes, now: now)
            } catch {
                throw error == .expired ? .expired : .invalid
            }
            Self.verified.store((token, kept.bytes), for: text)
        }
        guard token.use == use, community.accounts[token.subject] != nil else { throw .invalid }
        // Only access tokens: expiring them on purpose exercises the renewal with a refresh token.
        if use == .access, let before = policy.expiredBefore, token.issuedAt < before { throw .expired }
        return token
    }

    /// The member an `Authorization: Bearer` header names (the scheme in any case, RFC 7235).
    func member(_ authorization: String?) throws(Refusal) -> String {
        guard let text = Self.bearer(authorization) else { throw .missing }
        return try check(text, use: .access).subject
    }

    /// The token of an `Authorization: Bearer <token>` header.
    static func bearer(_ authorization: String?) -> String? {
        guard let authorization else { return nil }
        let bytes = authorization.utf8
        guard bytes.count > 7, zip(bytes.prefix(7), "bearer ".utf8).allSatisfy({ $0 | 0x20 == $1 }) else {
            return nil
        }
        // Read in place: a token is a few hundred bytes, copied once into the text returned.
        let token = bytes.dropFirst(7).drop { $0 == 0x20 }
        let end = token.lastIndex { $0 != 0x20 }.map { bytes.index(after: $0) } ?? token.startIndex
        return String(Substring(token[..<end]))
    }

    /// Who a GET is by, from an access token a worker has checked already and that still holds
    /// now: what its kept answer is kept under (`ServedAPI.answerVariant`). Nil when the token is
    /// not known checked: the request then goes to a worker, which checks it.
    static func knownMember(_ request: ServedRequest, _ policy: ServedTokens, now: Int) -> String? {
        guard let text = bearer(request.header("Authorization")), let verified = verified.get(text)?.token,
            verified.use == .access, now < verified.expiresAt,
            policy.expiredBefore.map({ verified.issuedAt >= $0 }) ?? true
        else { return nil }
        return verified.subject
    }

    /// Tokens whose signatures were checked, by their text: shared by the workers.
    static let verified = VerifiedTokens()

    /// The next pair for a refresh token, which is used up; one used before signs its member
    /// out everywhere.
    func refresh(_ text: String) throws(Refusal) -> Pair {
        let token = try check(text, use: .refresh)
        guard community.refreshTokens.remove(token.id) != nil else {
            for live in community.refreshTokens.rows where live.user == token.subject {
                community.refreshTokens.remove(live.id)
            }
            throw .reused
        }
        return issue(for: token.subject)
    }
}

/// Checked tokens by their text, with the key that checked each: at most 4,096, all forgotten
/// when full (a plain table: an ordered cache's bookkeeping was most of a kept answer's lookup).
final class VerifiedTokens: @unchecked Sendable {
    typealias Entry = (token: WebToken, key: [UInt8])
    static let limit = 4096
    private var entries: [String: Entry] = [:]
    private let lock = NSLock()

    func get(_ text: String) -> Entry? {
        lock.lock()
        defer { lock.unlock() }
        return entries[text]
    }

    func store(_ token: Entry, for text: String) {
        lock.lock()
        defer { lock.unlock() }
        if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
        entries[text] = token
    }
}
