import ClosetCore
import ClosetTables

/// A command given as data rather than typed (a served request's form): its words, parameters
/// and `key=value` arguments, and the files its arguments name by attachment instead of path.
public struct CommandRequest: Sendable {
    public var words: [String]
    public var parameters: [String]
    public var arguments: [(key: String, value: String)]
    /// Bytes by the name an argument gives instead of a path (`image=upload-1`).
    public var attachments: [String: [UInt8]]

    public init(
        _ words: [String], parameters: [String] = [], arguments: [(key: String, value: String)] = [],
        attachments: [String: [UInt8]] = [:]
    ) {
        self.words = words
        self.parameters = parameters
        self.arguments = arguments
        self.attachments = attachments
    }
}

/// Why a command given as data failed: the engine's diagnostic, and the argument it is about.
public struct CommandFailure: Error, Sendable {
    public var diagnostic: Diagnostic
    /// The key of the argument the diagnostic points at; nil when it is about the whole command.
    public var key: String?

    public var id: String { diagnostic.id.rawValue }
    public var message: String { diagnostic.message }
}

extension Session {
    /// Runs a command given as data through the one door a typed statement goes through: it
    /// is written as a statement (every value quoted as `.dump` quotes it, so any text reads
    /// back exactly) and parsed, resolved, bound, checked and run as one, inside the caller's
    /// transaction. So a served write can be refused for nothing the prompt would accept, nor
    /// accepted for anything it would refuse.
    public func run(_ request: CommandRequest) throws(CommandFailure) -> Outcome {
        var text = request.words.joined(separator: " ")
        for parameter in request.parameters {
            let plain = !parameter.isEmpty && parameter.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != 0x22 }
            text += " " + (plain ? parameter : DumpWriter.quote(parameter))
        }
        var spans: [(key: String, range: Range<Int>)] = []
        for (key, value) in request.arguments {
            let start = text.utf8.count + 1
            text += " \(key)=" + DumpWriter.quote(value)
            spans.append((key, start..<text.utf8.count))
        }
        func failure(_ diagnostic: Diagnostic) -> CommandFailure {
            // An argument's own problem lies within its span; one about the whole command does not.
            let at = diagnostic.range.map { $0.lower..<max($0.upper, $0.lower + 1) }
            let key = at.flatMap { at in
                spans.last { $0.range.lowerBound <= at.lowerBound && at.upperBound <= $0.range.upperBound }?.key
            }
            return CommandFailure(diagnostic: diagnostic, key: diagnostic.missingKey ?? key)
        }
        attachments = request.attachments
        defer { attachments = [:] }
        do {
            guard case .command(let call)? = try Parser.parse(text).map(\.kind) else {
                throw Diagnostic.appMessage("'\(request.words.joined(separator: " "))' is not a command", at: nil)
            }
            return try Evaluator(session: self).run(call)
        } catch let diagnostic as Diagnostic {
            throw failure(diagnostic)
        } catch let error as StoreError {
            throw failure(.storeFailed(error, at: nil))
        } catch {
            throw failure(.appMessage("\(error)", at: nil))
        }
    }
}
