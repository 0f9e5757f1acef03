import ClosetLanguage
import ClosetServing
import Foundation
import Testing

@testable import ClosetShell

/// The folder tree is the architecture: these tests read `import` lines so a shortcut across
/// layers fails here instead of growing quietly.
@Suite struct ArchitectureTests {
    static let sources = repositoryRoot + "/Sources"
    /// Modules every layer may use: the standard library's neighbours, not ours.
    static let system: Set<String> = ["Foundation", "FoundationNetworking", "Glibc", "Darwin", "Dispatch"]
    static let engine: Set<String> = [
        "ClosetCore", "ClosetCrypto", "ClosetLanguage", "ClosetNetwork", "ClosetPictures", "ClosetServing",
        "ClosetTables",
    ]

    /// Each module's Swift files → the modules they import.
    static func imports(under folder: String) -> [String: Set<String>] {
        var found: [String: Set<String>] = [:]
        let root = sources + "/" + folder
        guard let files = FileManager.default.enumerator(atPath: root) else { return [:] }
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = (try? String(contentsOfFile: root + "/" + file, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                    words[..<index].allSatisfy({ $0.hasPrefix("@") })
                else { continue }
                found[file, default: []].insert(String(words[index + 1]))
            }
        }
        return found
    }

    static var packFolders: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: sources + "/Packs")) ?? []).sorted()
    }

    func expect(_ folder: String, importsOnly allowed: Set<String>) {
        let found = Self.imports(under: folder)
        #expect(!found.isEmpty, "no Swift files under \(folder)")
        for (file, modules) in found {
            for module in modules.subtracting(allowed).subtracting(Self.system) {
                Issue.record("\(folder)/\(file) imports \(module)")
            }
        }
    }

    @Test func theCoreImportsNothingOfOurs() { expect("ClosetCore", importsOnly: []) }

    /// The storage engine's tables, on the core's values alone: files are the store's.
    @Test func theTablesImportOnlyTheCore() { expect("ClosetTables", importsOnly: ["ClosetCore"]) }

    /// But its C: SHA-256 on the processor's instructions, for password hashes.
    @Test func theCryptoImportsOnlyItsC() { expect("ClosetCrypto", importsOnly: ["CSHA256"]) }

    @Test func theLanguageImportsOnlyTheCoreTheTablesTheNetworkPortAndThePictures() {
        expect("ClosetLanguage", importsOnly: ["ClosetCore", "ClosetNetwork", "ClosetPictures", "ClosetTables"])
    }

    /// Codecs and terminal outputs: bytes in, bytes out, on the core's values alone.
    @Test func thePicturesImportOnlyTheCore() { expect("ClosetPictures", importsOnly: ["ClosetCore"]) }

    /// The serving framework packs declare their APIs with: above the language (a served
    /// request runs the pack's own commands on a session), beside the server it never names.
    @Test func theServingFrameworkImportsOnlyTheLanguageAndBelow() {
        expect(
            "ClosetServing",
            importsOnly: ["ClosetCore", "ClosetLanguage", "ClosetNetwork", "ClosetPictures", "ClosetTables"])
    }

    @Test func theNetworkPortImportsOnlyTheCore() { expect("ClosetNetwork", importsOnly: ["ClosetCore"]) }

    /// libcurl costs every process that links FoundationNetworking 5–10 ms and ~10 MB: only
    /// the live transport and the `closet-http` helper that runs it may import it (the helper's
    /// main names it so a static build links what it stands on).
    @Test func onlyTheLiveTransportImportsFoundationNetworking() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.sources).filter { $0 != "Packs" }
        for folder in folders + Self.packFolders.map({ "Packs/" + $0 })
        where folder != "ClosetHTTP" && folder != "closet-http" {
            for (file, modules) in Self.imports(under: folder) where modules.contains("FoundationNetworking") {
                Issue.record("\(folder)/\(file) imports FoundationNetworking")
            }
        }
        #expect(Self.imports(under: "ClosetHTTP").values.contains { $0.contains("FoundationNetworking") })
    }

    @Test func theStoreImportsOnlyTheCoreAndTheTables() {
        expect("ClosetStore", importsOnly: ["ClosetCore", "ClosetTables", "CStoreSupport"])
    }

    @Test func aPackImportsOnlyTheEngineNeverAnotherPackTheStoreOrTheShell() {
        #expect(!Self.packFolders.isEmpty)
        for pack in Self.packFolders { expect("Packs/" + pack, importsOnly: Self.engine) }
    }

    @Test func theExecutableIsThin() throws {
        let main = try String(contentsOfFile: Self.sources + "/closet/main.swift", encoding: .utf8)
        #expect(main.split(separator: "\n").filter { !$0.hasPrefix("//") && !$0.isEmpty }.count <= 3)
    }

    /// Only a pack names its domain: the engine, the store and the shell never say clothes,
    /// styles, categories or seasons (the wardrobe's words).
    @Test func noFileOutsideTheWardrobeNamesItsWords() throws {
        let words = ["clothes", "style", "styles", "category", "categories", "season", "seasons"]
        let root = Self.sources
        guard let files = FileManager.default.enumerator(atPath: root) else { return }
        for case let file as String in files where !file.hasPrefix("Packs/Wardrobe/") {
            guard [".swift", ".c", ".h"].contains(where: file.hasSuffix) else { continue }
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8).lowercased()
            let tokens = Set(text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
            for word in words where tokens.contains(word) { Issue.record("\(file) names '\(word)'") }
        }
    }

    /// No force in the product's code: no `!` after a value, no `try!`, no `as!` (a hostile
    /// input must meet an error, never a trap). Strings and comments are left out of the scan.
    @Test func theSourcesForceNothing() throws {
        let force = try Regex(#"(?:[A-Za-z0-9_\)\]]!(?!=))|try!|as!"#)
        let literal = try Regex(#""(?:[^"\\]|\\.)*""#)
        guard let files = FileManager.default.enumerator(atPath: Self.sources) else { return }
        var scanned = 0
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: Self.sources + "/" + file, encoding: .utf8)
            scanned += 1
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                var code = line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
                code = code.replacing(literal, with: "\"\"")
                if code.contains(force) { Issue.record("\(file):\(number + 1) forces: \(line)") }
            }
        }
        #expect(scanned > 200)
    }

    /// A pack uses the engine's `public` API only: a name the engine declares `package` (and
    /// nowhere `public`) never appears in a pack's sources.
    @Test func aPackUsesOnlyThePublicAPI() throws {
        let declaration = try Regex(
            #"^\s*(?:@\w+\s+)*(package|public)\s+(?:(?:static|final|override|mutating|nonisolated|convenience|indirect|lazy|class)\s+)*(?:func|var|let|struct|enum|class|protocol|typealias|actor)\s+`?(\w+)"#
        )
        var packageNames = Set<String>()
        var publicNames = Set<String>()
        for module in Self.engine.union(["ClosetStore", "ClosetShell"]) {
            guard let files = FileManager.default.enumerator(atPath: Self.sources + "/" + module) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: Self.sources + "/\(module)/\(file)", encoding: .utf8)
                for line in text.split(separator: "\n") {
                    guard let match = try declaration.firstMatch(in: String(line)),
                        let level = match.output[1].substring, let name = match.output[2].substring
                    else { continue }
                    if level == "package" {
                        packageNames.insert(String(name))
                    } else {
                        publicNames.insert(String(name))
                    }
                }
            }
        }
        let internalOnly = packageNames.subtracting(publicNames)
        #expect(internalOnly.count > 100)
        for pack in Self.packFolders {
            guard let files = FileManager.default.enumerator(atPath: Self.sources + "/Packs/" + pack) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: Self.sources + "/Packs/\(pack)/\(file)", encoding: .utf8)
                // Code only: a comment's English ("keeps") is not a use of a name.
                let code = text.split(separator: "\n").map { line in
                    line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
                }.joined(separator: "\n")
                let tokens = Set(code.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
                for name in tokens.intersection(internalOnly).sorted() {
                    Issue.record("Packs/\(pack)/\(file) names '\(name)', which the engine keeps package")
                }
            }
        }
    }

    /// A pack exposes what its users need and no more (issue 41): `public` only for what the
    /// shell installs (the pack's value and its served APIs); a type or function `package` only
    /// when the shell, the fuzzer or a test names it, or a `package` declaration of the pack
    /// uses it (a repository protocol a test's double conforms to). The rest is the pack's own
    /// (internal), so it can change without touching anyone.
    @Test func aPackExposesOnlyWhatTheShellAndTheTestsUse() throws {
        let declaration = try Regex(
            #"^(\s*)(?:@\w+(?:\([^)]*\))?\s+)*(package|public)\s+(?:(?:static|final|override|mutating|nonisolated|convenience|indirect|lazy|class|private\(set\))\s+)*(func|var|let|struct|enum|class|protocol|typealias|actor|case)\s+`?(\w+)"#
        )
        func words(_ text: String) -> [String] {
            text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init)
        }
        func tokens(under folder: String) throws -> Set<String> {
            var found = Set<String>()
            guard let files = FileManager.default.enumerator(atPath: folder) else { return found }
            for case let file as String in files where file.hasSuffix(".swift") {
                found.formUnion(words(try String(contentsOfFile: folder + "/" + file, encoding: .utf8)))
            }
            return found
        }
        let shell = try tokens(under: Self.sources + "/ClosetShell").union(
            tokens(under: Self.sources + "/ClosetFuzzing"))
        let outside = try shell.union(tokens(under: repositoryRoot + "/Tests"))
        var publicCount = 0
        for pack in Self.packFolders {
            guard let files = FileManager.default.enumerator(atPath: Self.sources + "/Packs/" + pack) else { continue }
            var declared: [(file: String, name: String, topLevel: Bool, isPublic: Bool)] = []
            var signatures = Set<String>()
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: Self.sources + "/Packs/\(pack)/\(file)", encoding: .utf8)
                for line in text.split(separator: "\n") {
                    // An extension's constraints are part of its members' signatures.
                    if line.hasPrefix("extension ") { signatures.formUnion(words(String(line))) }
                    guard let match = try declaration.firstMatch(in: String(line)),
                        let indent = match.output[1].substring, let level = match.output[2].substring,
                        let name = match.output[4].substring
                    else { continue }
                    declared.append((file, String(name), indent.isEmpty, level == "public"))
                    signatures.formUnion(words(String(line)).filter { $0 != name })
                }
            }
            for (file, name, topLevel, isPublic) in declared {
                if isPublic {
                    publicCount += 1
                    if !shell.contains(name) {
                        Issue.record("Packs/\(pack)/\(file): '\(name)' is public, but the shell never names it")
                    }
                } else if topLevel, !outside.contains(name), !signatures.contains(name) {
                    Issue.record("Packs/\(pack)/\(file): '\(name)' is package, but nothing outside the pack names it")
                }
            }
        }
        // The pack's value and its served APIs, and the enum that holds them: a few per pack.
        #expect(publicCount > 0 && publicCount <= 3 * Self.packFolders.count, "\(publicCount) public declarations")
    }

    @Test func everyPackFolderIsInstalled() {
        #expect(InstalledPacks.all.count == Self.packFolders.count)
    }
}

/// The registry's rules, and that every command is pinned by at least one golden file.
@Suite struct RegistryTests {
    @Test func theInstalledRegistryIsValid() {
        #expect(RegistryValidator.problems(InstalledPacks.registry) == [])
    }

    /// A pack named `name` holding only the wardrobe's first command (`add clothes`): no entities
    /// or tables of its own to clash with the wardrobe's.
    func probePack(_ name: String) -> Pack {
        let wardrobe = InstalledPacks.all[0]
        var probe = wardrobe
        probe.name = name
        probe.entityKinds = []
        probe.tables = []
        probe.commands = [wardrobe.commands[0]]
        return probe
    }

    @Test func theValidatorFindsAPathClaimedTwiceABadExampleAndABadKey() {
        let wardrobe = InstalledPacks.all[0]
        var copy = probePack("copy")
        copy.commands[0].examples = ["add clothes category=hat season=fall"]
        copy.commands[0].keys.append(KeySpec("Colour", .text, "a key named with a capital"))
        let problems = RegistryValidator.problems(CommandRegistry(packs: [wardrobe, copy]))
        #expect(problems.contains { $0.contains("command 'add clothes' is claimed by") })
        #expect(problems.contains { $0.contains("'hat' is not a category") })
        #expect(problems.contains { $0.contains("key 'Colour': a key's name is lowercase ASCII") })
    }

    @Test func theValidatorFindsTwoPacksOfOneNameAndAKeyDeclaredTwice() {
        let wardrobe = InstalledPacks.all[0]
        var twin = wardrobe
        twin.entityKinds = []
        twin.tables = []
        twin.commands = []
        var doubled = InstalledPacks.all[1]
        let command = doubled.commands.firstIndex { !$0.keys.isEmpty } ?? 0
        doubled.commands[command].keys.append(doubled.commands[command].keys[0])
        let problems = RegistryValidator.problems(CommandRegistry(packs: [wardrobe, twin, doubled]))
        #expect(problems.contains("pack name '\(wardrobe.name)' is claimed by 2 packs"), "\(problems)")
        let spec = doubled.commands[command]
        #expect(problems.contains { $0.contains("'\(spec.name)' declares key '\(spec.keys[0].name)' 2 times") })
        // A key's Korean name is one of its names: another key may not have it.
        var korean = probePack("korean")
        korean.commands[0].path = ["probe"]
        korean.commands[0].examples = []
        let season = korean.commands[0].keys.first { $0.name == "season" }?.korean
        #expect(season == "계절")
        korean.commands[0].keys.append(KeySpec(season ?? "", .text, "a key named as another's Korean"))
        let clash = RegistryValidator.problems(CommandRegistry(packs: [wardrobe, korean]))
        #expect(clash.contains { $0.contains("'probe' declares key '계절' 2 times") }, "\(clash)")
        // A served API's name is one pack's too (`--log` and the banner name it).
        guard let serving = InstalledPacks.installed.first(where: { !$0.apis.isEmpty }) else {
            Issue.record("no installed pack serves an API")
            return
        }
        let served = ServedAPINames.problems([(serving.pack.name, serving.apis), ("copy", serving.apis)])
        #expect(served.contains { $0.hasPrefix("served API '\(serving.apis[0].name)' is claimed by") }, "\(served)")
        #expect(ServedAPINames.problems(InstalledPacks.installed.map { ($0.pack.name, $0.apis) }) == [])
    }

    @Test func everyCommandAppearsInAGoldenFile() throws {
        let registry = InstalledPacks.registry
        var seen = Set<String>()
        for folder in [repositoryRoot + "/Tests/Golden", repositoryRoot + "/Examples"] {
            guard let files = FileManager.default.enumerator(atPath: folder) else { continue }
            for case let file as String in files where file.hasSuffix(".closet") {
                let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
                var assembler = LineAssembler()
                var number = 0
                for line in text.scriptLines {
                    number += 1
                    // A statement marked `!` (it must fail) runs its command too.
                    guard let added = assembler.add(line, lineNumber: number),
                        let statement = try? Parser.parse(
                            (added.mustFailBlanked ?? added).text, examples: registry.syntaxExamples)
                    else { continue }
                    let call: CommandCall
                    switch statement.kind {
                    case .command(let command): call = command
                    case .binding(let binding): call = binding.command
                    case .dot: continue
                    }
                    if let (spec, _) = try? registry.resolve(call.words) { seen.insert(spec.name) }
                }
            }
        }
        for spec in registry.commands { #expect(seen.contains(spec.name), "no golden file runs '\(spec.name)'") }
    }
}
