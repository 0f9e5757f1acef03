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
            name: "PictureFuzz", dependencies: ["FuzzDriver", .product(name: "ClosetCore", package: "closet")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        // The HTTP request reader and multipart parser of `closet serve` (issue 27).
        .executableTarget(
            name: "ServerFuzz",
            dependencies: [
                "FuzzDriver", .product(name: "ClosetServer", package: "closet"),
                .product(name: "ClosetNetwork", package: "closet"),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        // The JPEG decoder (issue 26).
        .executableTarget(
            name: "JPEGFuzz", dependencies: ["FuzzDriver", .product(name: "ClosetCore", package: "closet")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
    ]
)
