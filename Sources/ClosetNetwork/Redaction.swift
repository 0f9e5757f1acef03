import Foundation

/// Takes secrets out of what is kept or shown: recordings and their bodies.
enum Redaction {
    static let placeholder = "REDACTED"

    /// Every occurrence of each secret (as written and as percent-encoded) replaced.
    static func redact(_ text: String, secrets: [String]) -> String {
        var text = text
        for secret in secrets {
            text = text.replacingOccurrences(of: secret, with: placeholder)
            let encoded = PercentEncoding.strict(secret)
            if encoded != secret { text = text.replacingOccurrences(of: encoded, with: placeholder) }
        }
        return text
    }

    /// A body with the secrets removed when it is text; pictures and other binary bodies
    /// are kept as they are (a key cannot hide in them by accident).
    static func redact(body: Data, contentType: String?, secrets: [String]) -> Data {
        guard !secrets.isEmpty, isText(contentType), let text = String(data: body, encoding: .utf8) else { return body }
        let redacted = redact(text, secrets: secrets)
        return redacted == text ? body : Data(redacted.utf8)
    }

    /// Bytes with each secret's bytes removed: what a key digests.
    static func remove(_ secrets: [String], from data: Data) -> Data {
        guard !secrets.isEmpty, var text = String(data: data, encoding: .utf8) else { return data }
        for secret in secrets { text = text.replacingOccurrences(of: secret, with: "") }
        return Data(text.utf8)
    }

    static func isText(_ contentType: String?) -> Bool {
        guard let type = contentType?.lowercased() else { return true }
        return type.hasPrefix("text/") || type.contains("json") || type.contains("xml")
            || type.contains("x-www-form-urlencoded")
    }
}
