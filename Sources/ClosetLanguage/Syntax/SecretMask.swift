/// Hides the values of secret keys (`password=`) in text people or files see: the echo,
/// error listings and prompt history. Any value becomes the same eight `*`, so not even its
/// length shows; the diagnostic renderer masks prefixes of a line, so a caret under a later
/// word still lines up.
package enum SecretMask {
    package static let hidden = "********"

    public static func mask(_ line: String, keys: Set<String>) -> String {
        guard !keys.isEmpty, line.contains("=") else { return line }
        var out = ""
        var characters = Array(line)[...]
        var atWordStart = true
        while let character = characters.first {
            if atWordStart, let key = keys.first(where: { startsWithKey(characters, $0) }) {
                out += key + "="
                characters = characters.dropFirst(key.count + 1)
                // The value: a quoted string (with its escapes) or a bare word.
                var value = 0
                if characters.first == "\"" {
                    value = 1
                    var escaped = false
                    for next in characters.dropFirst() {
                        value += 1
                        if escaped {
                            escaped = false
                        } else if next == "\\" {
                            escaped = true
                        } else if next == "\"" {
                            break
                        }
                    }
                } else {
                    value = characters.prefix { !$0.isWhitespace }.count
                }
                if value > 0 { out += Self.hidden }
                characters = characters.dropFirst(value)
                atWordStart = false
                continue
            }
            out.append(character)
            atWordStart = character.isWhitespace
            characters = characters.dropFirst()
        }
        return out
    }

    private static func startsWithKey(_ characters: ArraySlice<Character>, _ key: String) -> Bool {
        let prefix = characters.prefix(key.count + 1)
        return prefix.count == key.count + 1 && String(prefix.dropLast()).lowercased() == key && prefix.last == "="
    }
}
