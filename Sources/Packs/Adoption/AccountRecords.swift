import ClosetCore
import Foundation

/// A community member's account, declared once: `list accounts`, its JSON, the keys of
/// `add account` and its `.dump` line (with the password's hash, never the password).
enum AccountRecords {
    static let accountKind: EntityKind = EntityKind(
        singular: "account", plural: "accounts", korean: "회원", indefinite: "an account", keyStyle: .opaque,
        columns: { account.columns })
    static let account = EntitySchema<Account>(
        kind: accountKind,
        fields: [
            .field("user", input: .optional("user", .text, "the member's name (default: .user)")) { .text($0.id) },
            .field(
                "createdAt", label: "created",
                input: .restoring("created", .date, "restore with this time (what .dump writes)")
            ) { .date($0.createdAt) },
        ],
        listing: ["user", "createdAt"],
        // The dump supplies the password's hash (hash=), never a password.
        restore: ["user", "hash", "createdAt"])

    static func record(_ account: Account) -> Record { Self.account.record(account) }
}
