import ClosetLanguage
import Foundation

/// The host of a golden test: standard output and standard error go into one transcript, in
/// order, and each transcript line remembers the statement that printed it so a mismatch can
/// name the file:line to look at.
final class TranscriptHost: FileBackedHost {
    private(set) var text = ""
    private(set) var lineOwners: [StatementLocation?] = []
    weak var session: Session?
    let baseDirectory: String?

    init(baseDirectory: String) {
        self.baseDirectory = baseDirectory
    }

    func write(_ text: String, to stream: OutputChannel) {
        self.text += text
        let owner = session?.currentStatement
        for character in text where character == "\n" { lineOwners.append(owner) }
    }

    /// Golden output must not depend on the machine: time stands still.
    func monotonicSeconds() -> Double { 0 }
}
