import ClosetCore

/// `.changes`: how many stored rows the last statement that was not a dot command changed
/// (sqlite3's `.changes`, alone). Rows of every table count: a removal that also updates the rows pointing at the
/// removed one counts those too.
enum ChangesCommand {
    static let spec = DotCommandSpec(
        name: ".changes", summary: "how many rows the last statement changed", examples: [".changes"],
        run: { invocation in
            if let extra = invocation.call.arguments.first {
                throw Diagnostic.takesNoWords(".changes", at: extra.range)
            }
            return .count(invocation.session.lastChanges)
        })
}
