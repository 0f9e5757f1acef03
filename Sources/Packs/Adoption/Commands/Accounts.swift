import ClosetCore
import ClosetCrypto
import ClosetLanguage
import Foundation

/// The community's members: `add account` (the API's sign-up, and what `.dump` restores) and
/// `list accounts`. A password is kept only as a salted hash, as the market's are.
enum Accounts {
    static let password = KeySpec(
        "password", .text, "the member's password (8 characters or more)", required: false, secret: true)

    static let add = CommandSpec(
        path: ["add", "account"],
        summary: "sign a member up for the community API, with a password",
        keys: AccountRecords.account.keys(.add) + [password] + AccountRecords.account.keys(.restoring) + [
            KeySpec("hash", .text, "restore with this password hash instead of a password (what .dump writes)")
        ],
        notes: [
            "The password is kept only as a salted hash; it is masked in the echo, errors and history.",
            "password=? asks for it at the terminal with echo off.",
        ],
        examples: ["add account user=민지 password=\"dog lover 1\""],
        run: { invocation in
            let state = try invocation.state(AdoptionState.self)
            let user = try state.person(invocation, "user")
            guard state.community.accounts[user] == nil else {
                throw Diagnostic.accountExists(user, at: invocation.argument("user")?.range ?? invocation.call.range)
            }
            let hash: PasswordHash
            if let text = invocation.text("hash") {
                guard let stored = PasswordHash(text: text) else {
                    throw Diagnostic.badAccountHash(at: invocation.argument("hash")?.range)
                }
                hash = stored
            } else {
                guard let given = invocation.secret("password"), !given.isEmpty else {
                    throw Diagnostic.accountNeedsPassword(at: invocation.call.range)
                }
                guard given.count >= minimumPasswordLength else {
                    throw Diagnostic.shortPassword(at: invocation.argument("password")?.range)
                }
                hash = state.hash(given)
            }
            let account = Account(
                id: user, passwordHash: hash.text, createdAt: invocation.date("created") ?? invocation.clock.now())
            state.community.accounts.upsert(account)
            return .entity(Adoption.account, .opaque(user)) { AccountRecords.record(account) }
        })

    static let list = CommandSpec(
        path: ["list", "accounts"],
        summary: "list the community API's members, by name",
        examples: ["list accounts"],
        lists: true,
        run: { invocation in
            let accounts = try invocation.state(AdoptionState.self).community.accounts.rows.sorted { $0.id < $1.id }
            return .listing(Adoption.account, accounts.map { .opaque($0.id) }) {
                accounts.map(AccountRecords.record)
            }
        })

    static let count = CommandSpec(
        path: ["count", "accounts"],
        summary: "count the community API's members",
        examples: ["count accounts"],
        run: { invocation in .count(try invocation.state(AdoptionState.self).community.accounts.count) })

    static let export = CommandSpec(
        path: ["export", "accounts"],
        summary: "write the members (names and when they signed up, no passwords) to a .json or .csv file",
        keys: [TransferFiles.toKey],
        examples: ["export accounts to=accounts.csv"],
        run: { invocation in
            let accounts = try invocation.state(AdoptionState.self).community.accounts.rows.sorted { $0.id < $1.id }
            return try Exports.export(
                Adoption.account, accounts.map { .opaque($0.id) }, accounts.map(AccountRecords.record), invocation)
        })

    /// A file carries no passwords (as the market's products): every member imported takes the
    /// one given, hashed once.
    static let importing = CommandSpec(
        path: ["import", "accounts"],
        summary: "add members from a .json or .csv file (as export writes them), each with the password given",
        keys: [
            TransferFiles.fromKey, KeySpec("password", .text, "every member's password", required: true, secret: true),
        ],
        notes: [
            AccountRecords.account.importFields,
            "Every member takes the password given (hashed once, with one salt); password=? asks for it.",
        ],
        examples: ["import accounts from=accounts.csv password=\"change me 1\""],
        run: { invocation in
            let state = try invocation.state(AdoptionState.self)
            guard let given = invocation.secret("password"), !given.isEmpty else {
                throw invocation.missing("password")
            }
            guard given.count >= minimumPasswordLength else {
                throw Diagnostic.shortPassword(at: invocation.argument("password")?.range)
            }
            return try TransferFiles.importThroughAdd(
                invocation, schema: AccountRecords.account, supplied: [("hash", state.hash(given).text)],
                command: ["add", "account"])
        })

    /// As long as a passphrase a person can remember and a guess cannot (NIST SP 800-63B's least).
    static let minimumPasswordLength = 8
}
