// swift-tools-version:6.0
// closet: a command shell for app domains, hosting each app as a pack.
// Dependencies point one way: closet → ClosetShell → (packs, ClosetServing, ClosetServer, ClosetStore,
// ClosetLineEditor) → ClosetLanguage → ClosetNetwork → ClosetCore; ClosetLanguage and ClosetStore →
// ClosetTables → ClosetCore; ClosetLanguage → ClosetPictures → ClosetCore; a pack → ClosetLanguage,
// ClosetNetwork, ClosetCore (and ClosetTables, ClosetServing, ClosetPictures, ClosetCrypto → CSHA256
// where it needs them); ClosetLineEditor → CEditLine → libedit; closet-http → ClosetHTTP →
// ClosetNetwork. The engine (ClosetCore, ClosetTables, ClosetLanguage, ClosetNetwork, ClosetPictures,
// ClosetCrypto, ClosetServing) names no pack.
import Foundation
import PackageDescription

// In release builds, generic types the code names are instantiated through their metadata
// accessors rather than from mangled names: a mangled name makes the runtime look each of its
// conformances up by scanning every conformance record, the first time (27 such lookups were
// a third of a trivial statement's instructions). Measured in a new process: `count clothes`
// in `:memory:` 4.3M -> 2.8M instructions, 1.59 -> 1.47 ms.
//
// Release builds also leave out the run-time exclusivity checks (debug builds, where the tests
// run, keep them): each access to a class's stored property paid one, about 25 a statement
// (upserting a row took nine), 4% of seeding's instructions.
//
// On Linux, release builds also put each Swift function (and global) in a section of its own, so
// the linker can lay out the functions statements run, and the data they touch, side by side
// (`staticShell` below).
let startUp: [SwiftSetting] = [
    .unsafeFlags(
        ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors", "-enforce-exclusivity=unchecked"],
        .when(configuration: .release)),
    .unsafeFlags(["-Xfrontend", "-function-sections"], .when(platforms: [.linux], configuration: .release)),
]

// `swift build -c release` on Linux makes the binary `Scripts/closet` runs (issue 47): the shell
// one static executable (static Swift runtime, Foundation, libedit and the libraries under it: it
// starts in about half the time of a dynamic one, and touches less memory), linked by lld in the
// order of `Scripts/lib/hot-functions.order` (made by `Scripts/lib/hot-functions.py`: a statement
// then touches a few hundred KiB of code instead of pages spread over 20 MB, and its globals lie on
// a few pages instead of a hundred); the network helper
// with the static Swift runtime (it links libcurl, which has no static build here).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
let staticShell: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-static-executable", "-use-ld=lld",
            "-Xlinker", "--symbol-ordering-file=\(packageRoot)/Scripts/lib/hot-functions.order",
            "-Xlinker", "--no-warn-symbol-ordering", "-Xlinker", "-ltinfo", "-Xlinker", "-lbsd", "-Xlinker", "-lmd",
        ], .when(platforms: [.linux], configuration: .release))
]
let staticRuntime: [LinkerSetting] = [
    .unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))
]
// The executables' own modules are compiled so too: their imports of Foundation then name the
// static libraries under it (CoreFoundation, ICU, and curl's glue for the helper) to the linker.
let staticShellModule: [SwiftSetting] = [
    .unsafeFlags(["-static-executable"], .when(platforms: [.linux], configuration: .release))
]
let staticRuntimeModule: [SwiftSetting] = [
    .unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))
]

// The packs: each folder under `Sources/Packs` is a target named after it (`Market` →
// `MarketPack`), and `Tests/<Name>PackTests`, where it exists, its unit tests. A new pack is a
// folder and one line in `InstalledPacks`; nothing here names one. A pack may import any of the
// engine's libraries below (the architecture test holds it to them, and to no other pack).
let packFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Sources/Packs")
let packNames: [Target.Dependency] = packFolderNames().map { .target(name: $0 + "Pack") }
let packEngine: [Target.Dependency] = [
    "ClosetCore", "ClosetTables", "ClosetCrypto", "ClosetLanguage", "ClosetNetwork", "ClosetPictures", "ClosetServing",
]

func packFolderNames() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: packFolder.path)) ?? []
    return names.filter { name in
        var isFolder: ObjCBool = false
        return !name.hasPrefix(".")
            && FileManager.default.fileExists(
                atPath: packFolder.appendingPathComponent(name).path, isDirectory: &isFolder)
            && isFolder.boolValue
    }.sorted()
}

var packTargets: [Target] {
    packFolderNames().flatMap { name -> [Target] in
        let pack = Target.target(
            name: name + "Pack", dependencies: packEngine, path: "Sources/Packs/" + name, swiftSettings: startUp)
        let tests = packFolder.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/\(name)PackTests").path
        guard FileManager.default.fileExists(atPath: tests) else { return [pack] }
        return [
            pack,
            .testTarget(
                name: name + "PackTests",
                dependencies: [.target(name: name + "Pack")] + packEngine + [
                    "ClosetShell", "ClosetStore", "TestSupport",
                ]),
        ]
    }
}

let package = Package(
    name: "closet",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "closet", targets: ["closet"]),
        .executable(name: "closet-http", targets: ["closet-http"]),
        .library(name: "ClosetCore", targets: ["ClosetCore"]),
        .library(name: "ClosetTables", targets: ["ClosetTables"]),
        .library(name: "ClosetCrypto", targets: ["ClosetCrypto"]),
        .library(name: "ClosetPictures", targets: ["ClosetPictures"]),
        .library(name: "ClosetFuzzing", targets: ["ClosetFuzzing"]),
        .library(name: "ClosetLanguage", targets: ["ClosetLanguage"]),
        .library(name: "ClosetStore", targets: ["ClosetStore"]),
        .library(name: "ClosetShell", targets: ["ClosetShell"]),
        .library(name: "ClosetServer", targets: ["ClosetServer"]),
        .library(name: "ClosetServing", targets: ["ClosetServing"]),
        .library(name: "ClosetNetwork", targets: ["ClosetNetwork"]),
    ],
    targets: [
        // What every layer shares: vocabularies as data, entity kinds and schemas (output and
        // input), value kinds, output records, clocks, ids, checksums, byte coding, dates, image
        // headers. Its only read of the system: random ids from /dev/urandom (else the system
        // generator).
        // Optimized in debug builds too: the checksums are loops a debug build runs 50 times
        // slower, and every test, golden and seed script goes through them.
        .target(
            name: "ClosetCore", swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))] + startUp),
        // The storage engine's tables: the store contract (savepoints, commits, write
        // problems), typed tables with one undo log, rows read in place from a mapped snapshot
        // section, indexes and groupings, row codecs, compaction's section copy, the store check.
        // It reads only the memory a store maps for it; `ClosetStore` owns the files.
        // Optimized in debug builds too: row codecs and snapshot reads are loops a debug build
        // runs many times slower, and every test, golden and seed script goes through them.
        .target(
            name: "ClosetTables", dependencies: ["ClosetCore"],
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))] + startUp),
        // Password hashes: SHA-256, PBKDF2-HMAC-SHA256 and the stored hash's text, for the packs
        // that keep passwords (the market). Optimized in debug builds too: 600,000 rounds.
        .target(
            name: "ClosetCrypto", dependencies: ["CSHA256"],
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))] + startUp),
        // SHA-256 and PBKDF2-HMAC-SHA256 on the processor's SHA instructions (x86's SHA
        // extensions), portable C otherwise: a password check is 1.2 million compressions.
        .target(name: "CSHA256", cSettings: [.unsafeFlags(["-O2"])]),
        // Pictures: the zlib inflater, the PNG and JPEG decoders and encoders, RGBA bitmaps,
        // and the terminal outputs (kitty, iTerm2, sixel, half blocks). No I/O. Optimized in
        // debug builds too: decoding is loops a debug build runs many times slower.
        .target(
            name: "ClosetPictures", dependencies: ["ClosetCore"],
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))] + startUp),
        // Lexer → parser → syntax tree → binder → evaluator, the registry and its packs,
        // diagnostics and output renderers. Does no I/O: the host injects output and files.
        .target(
            name: "ClosetLanguage", dependencies: ["ClosetCore", "ClosetTables", "ClosetNetwork", "ClosetPictures"],
            swiftSettings: startUp),
        // The network port packs send requests through: requests, responses, recordings
        // (replay, record), offline, and the client of the live helper. Foundation only:
        // it never links FoundationNetworking, so start-up does not load libcurl.
        .target(name: "ClosetNetwork", dependencies: ["ClosetCore"], swiftSettings: startUp),
        // The HTTP/1.1 server of `closet serve`: one I/O thread under epoll (poll elsewhere), worker lanes, the request reader, limits
        // and timeouts. Knows no API: packs answer requests through the registry.
        .target(
            name: "ClosetServer", dependencies: ["ClosetCore", "ClosetNetwork", "CServerSupport"],
            swiftSettings: startUp),
        // What packs declare their served APIs with: routes and their router, the context an
        // answer reads, served pictures and recordings, and a request as one transaction on a
        // session. Knows no socket: `ClosetServer` carries the bytes, the shell joins the two.
        .target(
            name: "ClosetServing",
            dependencies: ["ClosetCore", "ClosetTables", "ClosetLanguage", "ClosetNetwork", "ClosetPictures"],
            swiftSettings: startUp),
        // What the server needs from C that Swift's Glibc module leaves out: epoll, a thread's
        // own priority.
        .target(name: "CServerSupport"),
        // The live transport over URLSession (FoundationNetworking, libcurl), linked only
        // into the helper executable and the tests.
        .target(name: "ClosetHTTP", dependencies: ["ClosetCore", "ClosetNetwork"]),
        // The network helper `closet` starts on its first live request.
        .executableTarget(
            name: "closet-http", dependencies: ["ClosetHTTP"], swiftSettings: staticRuntimeModule,
            linkerSettings: staticRuntime),
        // The body of the language fuzz target, here so it may use the engine's `package`
        // declarations; `Fuzz/` (built with the sanitizers by `Scripts/fuzz`) calls it.
        .target(
            name: "ClosetFuzzing",
            dependencies: [
                "ClosetCore", "ClosetLanguage", "ClosetNetwork", "ClosetPictures", "ClosetServer", "ClosetServing",
                "ClosetShell",
            ]),
        // Each folder under Sources/Packs is a pack target: `packTargets`, added at the end.
        // CRC-32C on the processor's instruction (SSE4.2, ARMv8 CRC), with the table-driven
        // fallback: the store's files are verified on every open. Also the C library calls
        // Swift's Glibc module leaves out (syncfs, mallopt).
        .target(name: "CStoreSupport"),
        // The durable store: journal, snapshots, lock, blob files. Knows tables, not packs.
        .target(
            name: "ClosetStore", dependencies: ["ClosetCore", "ClosetTables", "CStoreSupport"], swiftSettings: startUp),
        // libedit's variadic C API wrapped in plain functions Swift can call (needs libedit-dev).
        .target(name: "CEditLine", linkerSettings: [.linkedLibrary("edit")]),
        // The `LineEditor` protocol: libedit on a terminal, a plain reader for pipes.
        .target(name: "ClosetLineEditor", dependencies: ["ClosetCore", "CEditLine"], swiftSettings: startUp),
        // The host: the installed packs, the session factory, command-line options, scripts,
        // golden tests, the prompt, process I/O.
        .target(
            name: "ClosetShell",
            dependencies: [
                "ClosetCore", "ClosetTables", "ClosetLanguage", "ClosetNetwork", "ClosetPictures", "ClosetStore",
                "ClosetLineEditor", "ClosetServer", "ClosetServing", "CStoreSupport",
            ] + packNames, swiftSettings: startUp),
        .executableTarget(
            name: "closet", dependencies: ["ClosetShell"], swiftSettings: startUp + staticShellModule,
            linkerSettings: staticShell),

        .target(
            name: "TestSupport",
            dependencies: [
                "ClosetCore", "ClosetTables", "ClosetLanguage", "ClosetNetwork", "ClosetPictures", "ClosetStore",
                "ClosetShell", "ClosetLineEditor",
            ] + packNames,
            path: "Tests/TestSupport"),
        // Each test target names every module it imports: SwiftPM rebuilds a target when a module
        // it names changes, not one it reaches only through another (stale tests failed to link).
        .testTarget(name: "ClosetCoreTests", dependencies: ["ClosetCore", "TestSupport"]),
        .testTarget(name: "ClosetTablesTests", dependencies: ["ClosetCore", "ClosetTables", "TestSupport"]),
        .testTarget(name: "ClosetCryptoTests", dependencies: ["ClosetCore", "ClosetCrypto"]),
        .testTarget(name: "ClosetPicturesTests", dependencies: ["ClosetCore", "ClosetPictures", "TestSupport"]),
        .testTarget(name: "ClosetNetworkTests", dependencies: ["ClosetNetwork", "ClosetHTTP", "TestSupport"]),
        .testTarget(
            name: "ClosetServingTests",
            dependencies: ["ClosetServing", "ClosetLanguage", "ClosetNetwork", "TestSupport"]),
        .testTarget(name: "ClosetServerTests", dependencies: ["ClosetServer", "ClosetNetwork", "TestSupport"]),
        .testTarget(
            name: "ClosetStoreTests",
            dependencies: ["ClosetCore", "ClosetTables", "ClosetStore", "WardrobePack", "TestSupport"]),
        .testTarget(
            name: "ClosetLanguageTests",
            dependencies: [
                "ClosetCore", "ClosetTables", "ClosetLanguage", "ClosetLineEditor", "ClosetNetwork", "ClosetPictures",
                "ClosetStore",
                "ClosetShell", "WardrobePack", "TestSupport",
            ]),
        .testTarget(
            name: "ClosetShellTests",
            dependencies: [
                "ClosetCore", "ClosetTables", "ClosetLanguage", "ClosetLineEditor", "ClosetNetwork", "ClosetPictures",
                "ClosetServing",
                "ClosetShell",
                "ClosetStore", "WardrobePack", "TestSupport",
            ]),
    ] + packTargets
)
