// swift-tools-version:6.0
// closet: a command shell for the EasyCloset wardrobe domain.
// Dependencies point one way: closet → ClosetShell → (ClosetLanguage, ClosetStorage, ClosetLineEditor)
// → ClosetDomain; ClosetLineEditor → CEditLine → libedit.
import PackageDescription

let package = Package(
    name: "closet",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "closet", targets: ["closet"]),
        .library(name: "ClosetLanguage", targets: ["ClosetLanguage"]),
        .library(name: "ClosetStorage", targets: ["ClosetStorage"]),
    ],
    targets: [
        // Models, view models and repository protocols of the EasyCloset app. No I/O.
        .target(name: "ClosetDomain"),
        // Repository implementations: the in-memory wardrobe with statement-level undo.
        .target(name: "ClosetStorage", dependencies: ["ClosetDomain"]),
        // Lexer → parser → syntax tree → evaluator, the command registry, diagnostics and
        // output renderers. Does no I/O: the host injects output, files and the store.
        .target(name: "ClosetLanguage", dependencies: ["ClosetDomain"]),
        // libedit's variadic C API wrapped in plain functions Swift can call (needs libedit-dev).
        .target(name: "CEditLine", linkerSettings: [.linkedLibrary("edit")]),
        // The `LineEditor` protocol: libedit on a terminal, a plain reader for pipes.
        .target(name: "ClosetLineEditor", dependencies: ["CEditLine"]),
        // The host: command-line options, script files, golden tests, the prompt, process I/O.
        .target(name: "ClosetShell", dependencies: ["ClosetLanguage", "ClosetStorage", "ClosetDomain", "ClosetLineEditor"]),
        .executableTarget(name: "closet", dependencies: ["ClosetShell"]),

        .target(
            name: "TestSupport", dependencies: ["ClosetLanguage", "ClosetStorage", "ClosetDomain", "ClosetLineEditor"],
            path: "Tests/TestSupport"),
        .testTarget(name: "ClosetDomainTests", dependencies: ["ClosetDomain", "ClosetStorage", "TestSupport"]),
        .testTarget(name: "ClosetStorageTests", dependencies: ["ClosetStorage", "TestSupport"]),
        .testTarget(name: "ClosetLanguageTests", dependencies: ["ClosetLanguage", "ClosetStorage", "TestSupport"]),
        .testTarget(name: "ClosetShellTests", dependencies: ["ClosetShell", "TestSupport"]),
    ]
)
