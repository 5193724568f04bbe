// swift-tools-version:6.2
import PackageDescription

/// Where CloudKit does not exist, so the CloudKit gateway compiles against its stand-in (on Apple
/// platforms the stand-in module is empty: every file of it is inside `#if !canImport(CloudKit)`).
let withoutCloudKit: [Platform] = [.linux, .windows, .android, .wasi, .openbsd]

let package = Package(
    name: "syncgen",
    // What the runtime's APIs need on Apple platforms: `Duration` (macOS 13, iOS 16), and the
    // CloudKit facts the engine acts on: a zone deleted by an encrypted-data reset is told apart
    // (`CKDatabase.DatabaseChange.Deletion.Reason`, macOS 14, iOS 17), and `CKDatabase` and
    // `CKShare.Metadata` are `Sendable` from those SDKs on. Linux needs nothing.
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        // The generator is the syncgen tool's and the plugin's: it is no library product, so no
        // app comes to depend on its internals.
        .executable(name: "syncgen", targets: ["syncgen"]),
        .executable(name: "syncgen-inspect", targets: ["syncgen-inspect"]),
        .library(name: "SyncRuntime", targets: ["SyncRuntime"]),
        .library(name: "SyncCore", targets: ["SyncCore"]),
        .library(name: "SyncTesting", targets: ["SyncTesting"]),
        .library(name: "SyncLocalCloud", targets: ["SyncLocalCloud"]),
        .library(name: "CloudKitGateway", targets: ["CloudKitGateway"]),
        .plugin(name: "SyncGenPlugin", targets: ["SyncGenPlugin"]),
        .plugin(name: "SyncGenValidate", targets: ["SyncGenValidate"]),
    ],
    targets: [
        // libyaml, wrapped once by SyncGenerator's YAML loader.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // SQLite, wrapped once by SyncStorage.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // The rules: values, records, routing, model protocols, limits, reserved names, events.
        // What generated code conforms to and the facts the generator must agree with; no SQLite,
        // no LocalCloud.
        .target(
            name: "SyncCore",
            // The messages a user reads (`UserMessage`), English and any translation added: a
            // String Catalog read as it is, so every platform answers alike.
            resources: [.copy("Localizable.xcstrings")]
        ),
        // The ports: what the engine needs from a cloud (CloudKit, LocalCloud) and from a local
        // store, and nothing of how either is built.
        .target(
            name: "SyncPorts",
            dependencies: ["SyncCore"]
        ),
        // The sync engine: the use cases over the ports, and `SyncEngine`, which runs them. It
        // cannot see SQLite, the store or LocalCloud: only the ports.
        .target(
            name: "SyncEngineKit",
            dependencies: ["SyncCore", "SyncPorts"]
        ),
        // SQLite, wrapped once, and the compact binary form records are kept in: what the local
        // store and LocalCloud's file both stand on. Package API only.
        .target(
            name: "SyncStorage",
            dependencies: ["CSQLite", "SyncCore"]
        ),
        // The local store (SQLite: models, history, server versions, tokens) and the asset cache's
        // files, implementing the store ports.
        .target(
            name: "SyncLocalStore",
            dependencies: ["SyncCore", "SyncPorts", "SyncStorage"],
            // Apple's privacy manifest: the reason for the file metadata the asset cache reads
            // (.ci/privacy-manifest keeps it in step with the code).
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        // What an app imports: the rules, the engine and the local store, with the engine's
        // initialisers over the SQLite store.
        .target(
            name: "SyncRuntime",
            dependencies: ["SyncCore", "SyncPorts", "SyncEngineKit", "SyncLocalStore"]
        ),
        // LocalCloud, the CloudKit-faithful local cloud: its own library, so an app for Apple
        // platforms can leave the simulator out of its binary. A cloud behind the gateway port;
        // it knows nothing of the engine.
        .target(
            name: "SyncLocalCloud",
            dependencies: ["SyncCore", "SyncPorts", "SyncStorage"]
        ),
        // CloudKit's API as the CloudKit gateway uses it, with Apple's spellings and rules, for
        // platforms without CloudKit: the gateway's one source compiles against it here, and
        // LocalCloud answers behind it.
        .target(
            name: "CloudKitStandIn",
            dependencies: ["SyncCore", "SyncPorts", "SyncStorage", "SyncLocalCloud"]
        ),
        // The CloudKit gateway: the port over CloudKit's async API. One source: it imports CloudKit
        // on Apple platforms and the stand-in elsewhere.
        .target(
            name: "CloudKitGateway",
            dependencies: [
                "SyncCore", "SyncPorts",
                .target(name: "CloudKitStandIn", condition: .when(platforms: withoutCloudKit)),
            ]
        ),
        // Test support an app's own tests can use too: a clock that moves only when told to.
        .target(
            name: "SyncTesting",
            dependencies: ["SyncCore"]
        ),
        // Schema loading -> validation -> code generation. Pure stages, no file system access.
        .target(
            name: "SyncGenerator",
            dependencies: ["CYAML", "SyncCore"]
        ),
        // The language server for schema files (`syncgen lsp`): the protocol over bytes, so tests
        // drive it in-process; the tool connects it to stdio.
        .target(
            name: "SchemaLanguageServer",
            dependencies: ["SyncGenerator"]
        ),
        // The command-line tool: argument parsing, file I/O, and calls into SyncGenerator.
        .executableTarget(
            name: "syncgen",
            dependencies: ["SyncGenerator", "SchemaLanguageServer"]
        ),
        // The inspector: where sync stands in a store file, read offline. A tool of its own, so
        // the generator's stays free of SQLite.
        .executableTarget(
            name: "syncgen-inspect",
            dependencies: ["SyncCore", "SyncPorts", "SyncEngineKit", "SyncLocalStore"]
        ),
        // The build plugin: a target's *.yaml schemas become Swift at build time.
        .plugin(
            name: "SyncGenPlugin",
            capability: .buildTool(),
            dependencies: ["syncgen"]
        ),
        // `swift package syncgen-validate`: validates every target's schemas.
        .plugin(
            name: "SyncGenValidate",
            capability: .command(
                intent: .custom(verb: "syncgen-validate", description: "Validate the sync schemas of every target")
            ),
            dependencies: ["syncgen"]
        ),
        // Benchmarks, run in release: `swift run -c release syncgen-bench`. Its models come from its
        // Schema/ folder through the build plugin, as an app's do.
        .executableTarget(
            name: "syncgen-bench",
            dependencies: ["SyncGenerator", "SchemaLanguageServer", "SyncRuntime", "SyncLocalCloud", "SyncStorage", "CSQLite"],
            plugins: ["SyncGenPlugin"]
        ),
        .testTarget(
            name: "SyncGeneratorTests",
            dependencies: ["SyncGenerator", "SchemaLanguageServer", "SyncCore", "SyncRuntime", "SyncTesting", "syncgen"],
            exclude: ["Fixtures", "Goldens"],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // Code generated from Tests/GeneratedCoverage/Schema (every construct of the schema
        // language, models named like standard types) with public access, compiled with warnings
        // as errors. A module of its own, so its `Data`, `Date` and `Task` shadow nothing else.
        .target(
            name: "GeneratedCoverage",
            dependencies: ["SyncCore"],
            path: "Tests/GeneratedCoverage",
            exclude: ["Schema"],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // A second process for the multi-process tests: a LocalCloud device, or an app opening its
        // store (on a disk with no room left).
        .executableTarget(
            name: "LocalCloudProbe",
            dependencies: ["SyncCore", "SyncPorts", "SyncLocalCloud", "SyncLocalStore", "GeneratedCoverage"],
            path: "Tests/LocalCloudProbe"
        ),
        // The runtime's tests. Generated/ holds the code generated from Examples/Notes/Sources/NotesDemo/Schema (internal
        // access), compiled here with warnings as errors and used by the tests as their models.
        .testTarget(
            name: "SyncRuntimeTests",
            dependencies: [
                "SyncCore", "SyncRuntime", "SyncEngineKit", "SyncLocalStore", "SyncStorage", "SyncLocalCloud", "SyncTesting",
                "CloudKitGateway", "GeneratedCoverage", "LocalCloudProbe", "syncgen-inspect",
                // The gateway's tests over the stand-in, compiled only where the stand-in exists.
                .target(name: "CloudKitStandIn", condition: .when(platforms: withoutCloudKit)),
            ],
            // Files an earlier release wrote (a store, a LocalCloud file), read by the tests as
            // they are, and the cloud's recorded texts (`SyncWorld.expectCloud`): never data of
            // the target.
            exclude: ["Fixtures", "Goldens"],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
