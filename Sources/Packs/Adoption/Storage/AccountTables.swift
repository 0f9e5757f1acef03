import ClosetCore
import ClosetTables
import Foundation

/// A member of the community who signed up (`add account`, the API's sign-up): their name and
/// their password's salted hash, never the password.
struct Account: Codable, Sendable, Hashable, Identifiable {
    /// The member's name: what stories and comments name as their author.
    var id: String
    var passwordHash: String
    var createdAt: Date
}

/// A refresh token the community API gave and has not yet seen used: its id (`jti`), whose it
/// is and until when (seconds since 1970). Refreshing takes it and gives another (rotation);
/// one presented again after that takes every live one of its member's (a stolen token's
/// replay ends the thief's session and the owner's alike, as OAuth 2.0's security BCP says).
struct LiveRefreshToken: Codable, Sendable, Hashable, Identifiable {
    var id: String
    var user: String
    var expiresAt: Int
}

/// The key the community API signs its tokens with: made with the first token and kept in the
/// store, so tokens outlive a restart of `closet serve`. Never dumped: a restored store signs
/// with a key of its own, and its members sign in again.
struct TokenKey: Codable, Sendable, Hashable, Identifiable {
    var id: String
    var bytes: [UInt8]
}

/// The tables of the community API's members and tokens.
enum AccountTables {
    static let accounts = TableSchema<CodableRows<Account>>(name: "adoption.accounts")
    static let refreshTokens = TableSchema<CodableRows<LiveRefreshToken>>(name: "adoption.refresh-tokens")
    static let tokenKeys = TableSchema<CodableRows<TokenKey>>(name: "adoption.token-keys")
}
