/// How long the tokens an API gives last (`closet serve --token-ttl`), and the second before
/// which every one is expired (`--expire-tokens-every <n>` requests), so an app's renewing
/// interceptor can be exercised without waiting.
public struct ServedTokens: Sendable, Equatable {
    /// Seconds an access token lasts.
    public var lifetime: Int
    /// Tokens issued before this second (since 1970) count as expired; nil: none.
    public var expiredBefore: Int?

    /// A quarter of an hour: an access token stolen from a log or a screen soon ends.
    public static let standardLifetime = 900

    public init(lifetime: Int = standardLifetime, expiredBefore: Int? = nil) {
        self.lifetime = lifetime
        self.expiredBefore = expiredBefore
    }
}
