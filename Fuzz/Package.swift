// swift-tools-version:6.0
// The libFuzzer target, kept out of the main package so `swift build` never needs the
// sanitizers. Build and run it with `Scripts/fuzz`.
import PackageDescription

let package = Package(
    name: "ClosetFuzz",
    dependencies: [.package(name: "closet", path: "..")],
    targets: [
        // Hands each target's entry point to libFuzzer's driver.
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "ClosetFuzz",
            dependencies: [
                "FuzzDriver", .product(name: "ClosetFuzzing", package: "closet"),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        // The picture decoders (issue 26): PNG and zlib, from files and network answers.
        .executableTarget(
            name: "PictureFuzz",
            dependencies: [
                "FuzzDriver", .product(name: "ClosetCore", package: "closet"),
                .product(name: "ClosetPictures", package: "closet"),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        // The whole of `closet serve` (issues 27 and 40): the request reader, the multipart
        // parser, the handler and every route against a market in memory.
        .executableTarget(
            name: "ServerFuzz",
            dependencies: ["FuzzDriver", .product(name: "ClosetFuzzing", package: "closet")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        // The JPEG decoder (issue 26).
        .executableTarget(
            name: "JPEGFuzz",
            dependencies: [
                "FuzzDriver", .product(name: "ClosetCore", package: "closet"),
                .product(name: "ClosetPictures", package: "closet"),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
    ]
)
