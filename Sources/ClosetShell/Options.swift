import ClosetCore
import ClosetLanguage
import Foundation

/// The command line (SPEC §7), parsed without any package: a handful of options, then an
/// optional subcommand (`run`, `test`, `dump`, and other verbs later).
package struct Options: Equatable {
    package enum Action: Equatable {
        case interactiveOrStdin
        /// `-c`, once or several times: run in order.
        case statements([String])
        case run([String])
        case test(
            update: Bool, record: Bool, junit: String?, paths: [String],
            selection: GoldenRunner.Selection = GoldenRunner.Selection())
        /// `dump [--output <file>] [--images <dir> [--skip-damaged]]`.
        case dump(images: String?, output: String?, skipDamaged: Bool)
        /// `recover <store> [<new store>]`: copies every intact transaction into a new store.
        case recover(store: String, target: String?)
        /// `check [<store>]`: reads the whole store and checks it.
        case check(store: String?)
        /// `serve [...]`: the packs' APIs over HTTP, from the store.
        case serve(ServeOptions)
        case help
        case version
    }

    package var action: Action = .interactiveOrStdin
    public var store: String?
    public var format: OutputFormat?
    /// `--lang en|ko`: what people read output in.
    public var language: OutputLanguage?
    /// `--pictures auto|kitty|iterm|sixel|blocks|off`: how pictures are shown.
    public var pictures: PictureMode?
    package var bail = false
    public var echo = false
    public var deterministic = false
    /// `--quiet`: statements' results are not written (errors and notes still are): seeding a
    /// store from a script, as sqlite3 prints nothing for an INSERT.
    package var quiet = false
    package var seed: UInt64 = 0
    /// `--today <yyyy-mm-dd>`: the day the session's clock starts on (a recorded world's day).
    package var today: Date?
    public var offline = false
    public var replay: String?
    public var record: String?
    package var timeoutSeconds: Int?
    /// `--max-response <size>`: the most bytes a live answer's body may have.
    package var maximumResponseBytes: Int?
    /// `--busy-timeout`: how long a writer waits for another to finish, in seconds.
    package var busyTimeout: Double?
    public var user: String?
    /// `--init '<statement>'` (sqlite3's `-cmd`): run before anything else but the rc file.
    package var initStatements: [String] = []
    /// `--no-rc`: skip the rc file.
    package var noRC = false

    /// A usage problem: exit status 2.
    package struct UsageError: Error, Equatable {
        public var message: String
    }

    /// The largest `--max-response`: an answer must fit in one frame to the helper.
    static let maximumResponseLimit = 200 << 20

    /// What parsing has read so far: the options, and the `-c` statements in order.
    struct Parsing {
        var options = Options()
        var statements: [String] = []
    }

    /// One option before the command, as a row of `rules`: its names, whether it takes a value
    /// (`--name value` or `--name=value`) or is a flag (on alone; `--name=on|off|...` says which),
    /// and what it sets.
    struct Rule: Sendable {
        var names: [String]
        var takesValue: Bool
        /// Given the name as written (one of `names`) and the value, if any.
        var apply: @Sendable (inout Parsing, _ name: String, _ value: String?) throws(UsageError) -> Void

        static func value(
            _ name: String, _ set: @escaping @Sendable (inout Parsing, String) throws(UsageError) -> Void
        ) -> Rule {
            Rule(names: [name], takesValue: true) { parsing, _, value throws(UsageError) in
                try set(&parsing, value ?? "")
            }
        }

        static func flag(_ name: String, _ set: @escaping @Sendable (inout Options, Bool) -> Void) -> Rule {
            Rule(names: [name], takesValue: false) { parsing, _, value throws(UsageError) in
                set(&parsing.options, try Rule.switchedOn(name, value))
            }
        }

        /// `--bail` alone is on; `--bail=true|on|yes|1` and `--bail=false|off|no|0` say which.
        static func switchedOn(_ name: String, _ inline: String?) throws(UsageError) -> Bool {
            guard let inline else { return true }
            switch inline.lowercased() {
            case "true", "on", "yes", "1": return true
            case "false", "off", "no", "0": return false
            default:
                throw UsageError(message: "'\(name)' takes true, false, on, off, yes, no, 1 or 0, not '\(inline)'")
            }
        }
    }

    /// Every option before the command, in the order `did you mean` prefers them.
    static let rules: [Rule] = [
        .value("--store") { parsing, store throws(UsageError) in
            guard !store.isEmpty else { throw UsageError(message: "'--store' needs a folder or :memory:") }
            parsing.options.store = store
        },
        .value("--format") { parsing, text throws(UsageError) in
            guard let format = OutputFormat(rawValue: text.lowercased()) else {
                throw UsageError(message: "unknown format '\(text)'; use \(OutputFormat.spelledOut)")
            }
            parsing.options.format = format
        },
        .value("--lang") { parsing, text throws(UsageError) in
            guard let language = OutputLanguage(rawValue: text.lowercased()) else {
                throw UsageError(message: "unknown language '\(text)'; use en or ko")
            }
            parsing.options.language = language
        },
        .value("--pictures") { parsing, text throws(UsageError) in
            guard let mode = PictureMode(rawValue: text.lowercased()) else {
                throw UsageError(
                    message: "unknown picture output '\(text)'; use auto, kitty, iterm, sixel, blocks or off")
            }
            parsing.options.pictures = mode
        },
        .value("--seed") { parsing, text throws(UsageError) in
            guard let seed = UInt64(text) else {
                throw UsageError(message: "'--seed' takes a whole number ≥ 0, not '\(text)'")
            }
            parsing.options.seed = seed
        },
        .value("--today") { parsing, text throws(UsageError) in
            guard let day = RecordedDay.parse(text) else {
                throw UsageError(message: "'--today' takes a day written 2012-01-02, not '\(text)'")
            }
            parsing.options.today = day
        },
        .value("--replay") { parsing, folder in parsing.options.replay = folder },
        .value("--record") { parsing, folder in parsing.options.record = folder },
        .value("--timeout") { parsing, text throws(UsageError) in
            guard let seconds = Int(text), (1...3600).contains(seconds) else {
                throw UsageError(message: "'--timeout' takes whole seconds from 1 to 3600, not '\(text)'")
            }
            parsing.options.timeoutSeconds = seconds
        },
        .value("--busy-timeout") { parsing, text throws(UsageError) in
            guard let seconds = Double(text), seconds.isFinite, (0...3600).contains(seconds) else {
                throw UsageError(message: "'--busy-timeout' takes seconds from 0 to 3600, not '\(text)'")
            }
            parsing.options.busyTimeout = seconds
        },
        .value("--user") { parsing, user throws(UsageError) in
            guard UserName.isValid(user) else { throw UsageError(message: UserName.rule(user)) }
            parsing.options.user = user
        },
        .value("-c") { parsing, statement in parsing.statements.append(statement) },
        .value("--init") { parsing, statement in parsing.options.initStatements.append(statement) },
        .value("--max-response") { parsing, text throws(UsageError) in
            guard let bytes = ByteSize.parse(text), (1 << 10...maximumResponseLimit).contains(bytes) else {
                throw UsageError(
                    message:
                        "'--max-response' takes a size from 1KB to \(ByteSize.format(maximumResponseLimit)), not '\(text)'"
                )
            }
            parsing.options.maximumResponseBytes = bytes
        },
        .flag("--bail") { $0.bail = $1 },
        .flag("--echo") { $0.echo = $1 },
        .flag("--deterministic") { $0.deterministic = $1 },
        .flag("--quiet") { $0.quiet = $1 },
        .flag("--offline") { $0.offline = $1 },
        .flag("--no-rc") { $0.noRC = $1 },
        Rule(names: ["--help", "-h", "--version"], takesValue: false) { parsing, name, value throws(UsageError) in
            if value != nil { throw UsageError(message: "'\(name)' takes no value") }
            parsing.options.action = name == "--version" ? .version : .help
        },
    ]

    /// The commands after the options, as a table: each reads every word after its name.
    struct Command: Sendable {
        var name: String
        var parse: @Sendable (ArraySlice<String>, _ optionsEnded: Bool) throws(UsageError) -> Action
    }

    static let commands = [
        Command(name: "run", parse: parseRun), Command(name: "test", parse: parseTest),
        Command(name: "dump", parse: parseDump), Command(name: "recover", parse: parseRecover),
        Command(name: "check", parse: parseCheck),
        Command(name: "serve") { words, _ throws(UsageError) in .serve(try ServeOptions.parse(Array(words))) },
    ]

    public static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var parsing = Parsing()
        var index = 0
        /// After `--`, no word is an option.
        var optionsEnded = false
        words: while index < arguments.count {
            var argument = arguments[index]
            var inlineValue: String?
            if argument == "--", !optionsEnded {
                optionsEnded = true
                index += 1
                continue
            }
            if optionsEnded, argument.hasPrefix("-") {
                throw UsageError(message: "'\(argument)' after '--' is not a command; options go before '--'")
            }
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                inlineValue = String(argument[argument.index(after: equals)...])
                argument = String(argument[..<equals])
            }
            if let command = commands.first(where: { $0.name == argument }) {
                parsing.options.action = try command.parse(arguments[(index + 1)...], optionsEnded)
                break words
            }
            guard let rule = rules.first(where: { $0.names.contains(argument) }) else {
                throw unknown(argument)
            }
            var value = inlineValue
            if rule.takesValue, value == nil {
                index += 1
                guard index < arguments.count else { throw UsageError(message: "'\(argument)' needs a value") }
                value = arguments[index]
            }
            try rule.apply(&parsing, argument, value)
            index += 1
        }
        var options = parsing.options
        let networkModes = [
            options.offline ? "--offline" : nil, options.replay.map { _ in "--replay" },
            options.record.map { _ in "--record" },
        ].compactMap { $0 }
        if networkModes.count > 1 {
            throw UsageError(
                message: "'\(networkModes[0])' and '\(networkModes[1])' cannot be combined: choose where requests go")
        }
        if !parsing.statements.isEmpty {
            guard options.action == .interactiveOrStdin else {
                throw UsageError(message: "'-c' cannot be combined with 'run', 'test' or 'dump'")
            }
            options.action = .statements(parsing.statements)
        }
        return options
    }

    /// An option or command no row names, with the nearest that one does.
    static func unknown(_ argument: String) -> UsageError {
        if argument.hasPrefix("-") {
            var message = "unknown option '\(argument)'"
            if let near = Suggestion.closest(to: argument, among: rules.flatMap(\.names)) {
                message += "; did you mean '\(near)'?"
            }
            return UsageError(message: message)
        }
        var message = "unknown command '\(argument)'"
        if let near = Suggestion.closest(to: argument, among: commands.map(\.name)) {
            message += "; did you mean '\(near)'?"
        } else {
            message += "; to run a statement, use -c '\(argument) ...'"
        }
        return UsageError(message: message)
    }

    /// `run [--] <file.closet>...`
    static func parseRun(_ words: ArraySlice<String>, optionsEnded: Bool) throws(UsageError) -> Action {
        var files: [String] = []
        var filesOnly = optionsEnded
        var separated = false
        for word in words {
            // `--` here too (once, before the files, even after `closet --`): a file whose name
            // starts with `-` comes after it.
            if word == "--", !separated, files.isEmpty {
                separated = true
                filesOnly = true
                continue
            }
            if !filesOnly, word.hasPrefix("-"), word != "-" {
                throw UsageError(message: "put options before 'run': '\(word)'")
            }
            files.append(word)
        }
        guard !files.isEmpty else { throw UsageError(message: "'run' needs at least one .closet file") }
        return .run(files)
    }

    /// `test [--update|--review] [--record] [--junit <file>] [--tap <file>] [-k <pattern>] [-j <jobs>] [--shard <i/n>] [--list] [-v] [--short] [--unreferenced] [--pending|--pending-dir <folder>] [<path>...]`
    static func parseTest(_ words: ArraySlice<String>, optionsEnded: Bool) throws(UsageError) -> Action {
        var update = false
        var record = false
        var junit: String?
        var paths: [String] = []
        var selection = GoldenRunner.Selection()
        var rest = words.makeIterator()
        while let word = rest.next() {
            switch word {
            case "-k":
                guard let pattern = rest.next(), !pattern.isEmpty else {
                    throw UsageError(message: "'-k' needs a pattern (part of a test's path)")
                }
                selection.pattern = pattern
            case "-j", "--jobs":
                guard let text = rest.next(), let jobs = Int(text), (1...256).contains(jobs) else {
                    throw UsageError(message: "'\(word)' needs a number of jobs from 1 to 256")
                }
                selection.jobs = jobs
            case "--shard":
                guard let text = rest.next(), let shard = GoldenRunner.Shard(text) else {
                    throw UsageError(
                        message: "'--shard' needs i/n: this machine's part of n, from 1 to n (--shard 2/4)")
                }
                selection.shard = shard
            case "--list": selection.list = true
            case "-v", "--verbose": selection.verbose = true
            case "--short": selection.short = true
            case "--unreferenced": selection.unreferenced = true
            case "--pending": selection.pending = .besideTests
            case "--pending-dir":
                guard let folder = rest.next(), !folder.isEmpty else {
                    throw UsageError(message: "'--pending-dir' needs a folder (where NAME.expected.new files go)")
                }
                selection.pending = .folder(folder)
            case "--update": update = true
            case "--review": selection.review = true
            case "--record": record = true
            case "--tap":
                guard let file = rest.next() else { throw UsageError(message: "'--tap' needs a file") }
                selection.tap = file
            case "--junit":
                guard let file = rest.next() else { throw UsageError(message: "'--junit' needs a file") }
                junit = file
            case _ where word.hasPrefix("-"):
                throw UsageError(
                    message:
                        "unknown option '\(word)' for 'test'; it takes --update, --review, --record, --junit <file>, --tap <file>, -k <pattern>, -j <jobs>, --shard <i/n>, --list, -v, --short, --unreferenced, --pending, --pending-dir <folder> and paths"
                )
            default: paths.append(word)
            }
        }
        if update, selection.review {
            throw UsageError(message: "'--update' records every change and '--review' asks about each: choose one")
        }
        return .test(update: update, record: record, junit: junit, paths: paths, selection: selection)
    }

    /// `dump [--output <file>] [--images <dir> [--skip-damaged]]`
    static func parseDump(_ words: ArraySlice<String>, optionsEnded: Bool) throws(UsageError) -> Action {
        var images: String?
        var output: String?
        var skipDamaged = false
        var rest = words.makeIterator()
        let usage = UsageError(
            message: "usage: closet [options] dump [--output <file>] [--images <dir> [--skip-damaged]]")
        while let word = rest.next() {
            switch word {
            case "--images" where images == nil:
                guard let folder = rest.next(), !folder.isEmpty else { throw usage }
                images = folder
            case "--output" where output == nil:
                guard let file = rest.next(), !file.isEmpty else { throw usage }
                output = file
            case "--skip-damaged" where !skipDamaged:
                skipDamaged = true
            default: throw usage
            }
        }
        // Without a folder no picture is read, so none can be left out.
        if skipDamaged, images == nil { throw usage }
        return .dump(images: images, output: output, skipDamaged: skipDamaged)
    }

    /// `recover <store> [<new store>]`
    static func parseRecover(_ words: ArraySlice<String>, optionsEnded: Bool) throws(UsageError) -> Action {
        let rest = Array(words)
        guard (1...2).contains(rest.count), !rest.contains(where: { $0.isEmpty || $0.hasPrefix("-") }) else {
            throw UsageError(message: "usage: closet recover <store> [<new store>]")
        }
        return .recover(store: rest[0], target: rest.count == 2 ? rest[1] : nil)
    }

    /// `check [<store>]`
    static func parseCheck(_ words: ArraySlice<String>, optionsEnded: Bool) throws(UsageError) -> Action {
        guard words.count <= 1, !words.contains(where: { $0.isEmpty || $0.hasPrefix("-") }) else {
            throw UsageError(message: "usage: closet check [<store>]")
        }
        return .check(store: words.first)
    }

    package static let usage = """
        usage: closet [options]                      a terminal: the prompt; otherwise statements from stdin
               closet [options] -c '<statement>'...  run statements (-c may be given several times)
               closet [options] run <file.closet>... run scripts, one transaction per file
               closet [options] dump [--output <file>] [--images <dir> [--skip-damaged]]
                                                     a script that recreates the store (.dump); with
                                                     --output, picture paths relative to the file;
                                                     --skip-damaged leaves damaged pictures out, said
               closet recover <store> [<new store>]  copy everything intact of a damaged store into a
                                                     new one (default <store>-recovered); exit 1 with
                                                     warnings when something could not be kept
               closet serve [--host <h>] [--port <n>] [--quiet] [--replay <dir>]... [<pack>...]
                                                     answer the apps' own APIs from the store (and
                                                     recordings) over HTTP (default 127.0.0.1:8080;
                                                     Ctrl-C stops it; closet serve --help for more)
               closet check [<store>]                read the whole store (default: --store's) and check
                                                     it for damage; exit 3 naming what is damaged
               closet test [--update|--review] [--record] [--junit <file>] [--tap <file>] [-k <pattern>] [-j <jobs>] [--shard <i/n>] [--list] [-v] [--short] [--unreferenced] [--pending|--pending-dir <folder>] [<path>...]
                                                     golden tests (default folder Tests/Golden); --record
                                                     re-records each test's http folder from the network;
                                                     -k runs the tests whose path contains <pattern>,
                                                     --list names them, -v a line per test with its time
                                                     -j runs that many at once (default: the cores),
                                                     --shard i/n only the i-th of n parts (CI machines);
                                                     --review shows each failing diff and asks to
                                                     accept, reject or skip it (at a terminal)

        options:
          --store <dir>|:memory:   where the data lives (default $CLOSET_STORE, $XDG_DATA_HOME/closet,
                                   ~/.local/share/closet)
          --format <format>        table, json, csv, line, box or markdown (default table)
          --lang en|ko             headers, labels and values in English or in the apps' Korean
                                   (default en; JSON, csv and line stay English)
          --pictures <how>         auto, kitty, iterm, sixel, blocks or off (default auto: what the
                                   terminal shows; never into a pipe or a file unless asked)
          --bail                   stop at the first failing statement
          --echo                   print each statement before its output
          --quiet                  write no results, only errors and notes (seeding from a script)
          --deterministic          reproducible ids and times (clock starts 2024-01-01T00:00:00Z)
          --seed <n>               seed for --deterministic ids (default 0)
          --today <yyyy-mm-dd>     start the clock at 00:00 UTC that day, so "yesterday" is a
                                   recorded day (default: the --replay folder's today file)
          --offline                no request leaves the process
          --replay <dir>           answer every request from recordings in <dir>
          --record <dir>           also write every exchange to <dir> (secrets removed)
          --timeout <seconds>      give up a request after this long without progress (default 10)
          --max-response <size>    give up an answer whose body is larger (default 32MB, at most 200MB)
          --busy-timeout <seconds> wait this long for another process's write to finish (default 5)
          --user <name>            who you are, for authors and likes (default $USER)
          --init '<statement>'     run a statement first (after the rc file); may be repeated
          --no-rc                  skip the rc file ($XDG_CONFIG_HOME/closet/closetrc, else ~/.closetrc)
          --                       ends the options
          --help, --version

        environment: CLOSET_STORE; CLOSET_UNSPLASH_URL (and the other CLOSET_*_URL) replace an API's
        base URL; UNSPLASH_ACCESS_KEY (and the other keys) are read only from the environment.

        exit status: 0 success, 1 a statement or test failed, 2 bad usage, 3 the store could not be opened
                     or a write waited out --busy-timeout
        """
}
