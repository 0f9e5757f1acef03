import ClosetCore
import Foundation

/// `.clock [advance <n>s|m|h|d | set <date>]`: the session clock, under `--deterministic`
/// only. Cache expiry and "yesterday" read it, so a golden moves time instead of waiting.
enum ClockCommand {
    static let spec = DotCommandSpec(
        name: ".clock", summary: "print the session clock, or move it (--deterministic only)",
        arguments: ["[advance|set <when>]"], choices: ["advance", "set"],
        examples: [".clock", ".clock advance 5m", ".clock set 2012-01-02"],
        run: { invocation in
            let session = invocation.session
            let call = invocation.call
            guard session.isDeterministic, let clock = session.clock as? AdjustableClock else {
                throw Diagnostic.clockNotAdjustable(at: call.name.range)
            }
            let words = call.arguments
            guard let verb = words.first else { return .settings([("clock", Timestamp.format(clock.current))]) }
            guard words.count == 2 else {
                throw Diagnostic.usage(invocation.spec.usage, at: words.count > 2 ? words[2].range : verb.range)
            }
            let value = words[1]
            switch verb.text.lowercased() {
            case "advance":
                guard let seconds = duration(value.text) else {
                    throw Diagnostic.badDuration(value.text, at: value.range)
                }
                clock.advance(by: seconds)
            case "set":
                guard let date = Timestamp.parse(value.text) else {
                    throw Diagnostic.badClockDate(value.text, at: value.range)
                }
                clock.set(date)
            default:
                throw Diagnostic.unknown(
                    "clock action", verb.text, at: verb.range, among: ["advance", "set"], hint: "use advance or set")
            }
            // The new time for people; nothing in JSON mode, which prints JSON or nothing (SPEC §6).
            return session.settings.format == .json ? .nothing : .text(Timestamp.format(clock.current) + "\n")
        })

    /// `90s`, `5m`, `2h`, `1d`: a whole number and a unit.
    static func duration(_ text: String) -> TimeInterval? {
        guard let unit = text.last, let number = Int(text.dropLast()), number >= 0, number <= 365 * 86_400 * 100
        else { return nil }
        switch unit {
        case "s": return TimeInterval(number)
        case "m": return TimeInterval(number * 60)
        case "h": return TimeInterval(number * 3600)
        case "d": return TimeInterval(number * 86_400)
        default: return nil
        }
    }
}
