import ClosetCore

/// `.user [<name>]`: who is at the prompt (authors of stories and comments, likes,
/// donations); alone, prints it.
enum UserCommand {
    static let spec = DotCommandSpec(
        name: ".user", summary: "print who you are, or become another user", arguments: ["[<name>]"],
        examples: [".user", ".user 민지"],
        run: { invocation in
            let words = invocation.call.arguments
            guard let word = words.first else { return .settings([("user", invocation.session.user)]) }
            guard words.count == 1 else { throw Diagnostic.usage(invocation.spec.usage, at: words[1].range) }
            guard UserName.isValid(word.text) else { throw Diagnostic.badUserName(word.text, at: word.range) }
            invocation.session.user = word.text
            // A setting set prints nothing, as `.mode json` does (`.user` alone says who).
            return .nothing
        })
}

/// What a user name may be: 1 to 32 letters (any script), digits, `-`, `_` or `.`.
package enum UserName {
    public static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 32
            && name.unicodeScalars.allSatisfy {
                $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" || $0 == "."
            }
    }

    public static func rule(_ name: String) -> String {
        "'\(name)' is not a user name: 1 to 32 letters, digits, -, _ or ."
    }
}
