// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "syncgen",
    products: [
        .executable(name: "syncgen", targets: ["syncgen"]),
        .library(name: "SyncGenerator", targets: ["SyncGenerator"]),
        .library(name: "SyncRuntime", targets: ["SyncRuntime"]),
    ],
    targets: [
        // libyaml, wrapped once by SyncGenerator's YAML loader.
        .systemLibrary(
            name: "CYAML",
            path: "Sources/CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // The sync engine generated code talks to. Its Domain also holds the facts the generator
        // must agree with (reserved names, CloudKit limits, the API version).
        .target(
            name: "SyncRuntime",
            path: "Sources/Runtime"
        ),
        // Schema loading -> validation -> code generation. Pure stages, no file system access.
        .target(
            name: "SyncGenerator",
            dependencies: ["CYAML", "SyncRuntime"],
            path: "Sources/Generator"
        ),
        // The command-line tool: argument parsing, file I/O, and calls into SyncGenerator.
        .executableTarget(
            name: "syncgen",
            dependencies: ["SyncGenerator"],
            path: "Sources/syncgen"
        ),
        // Benchmarks, run in release: `swift run -c release syncgen-bench`.
        .executableTarget(
            name: "syncgen-bench",
            dependencies: ["SyncGenerator"],
            path: "Sources/syncgen-bench"
        ),
        .testTarget(
            name: "SyncGeneratorTests",
            dependencies: ["SyncGenerator", "syncgen"],
            path: "Tests/GeneratorTests",
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
