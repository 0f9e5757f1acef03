import ClosetCore
import Foundation

/// Standard input that is not a terminal: no prompt, no echo, no history (sqlite3, psql and
/// redis-cli behave the same way).
package final class PlainLineReader: LineEditor {
    public init() {}

    package func readLine(prompt: String) -> LineInput {
        var bytes: [UInt8] = []
        while true {
            let byte = getchar()
            if byte == EOF {
                if bytes.isEmpty { return .endOfInput }
                break
            }
            if byte == 10 { break }
            bytes.append(UInt8(truncatingIfNeeded: byte))
        }
        if bytes.last == 13 { bytes.removeLast() }  // CRLF, as Swift's readLine does
        if let offset = UTF8Text.firstInvalidOffset(bytes) { return .invalidText(offset: offset) }
        return .line(String(decoding: bytes, as: UTF8.self))
    }

    public func remember(_ line: String) {}
    public func close() {}
}
