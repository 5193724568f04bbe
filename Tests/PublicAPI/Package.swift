// swift-tools-version:6.0
import PackageDescription

// The runtime's public API, seen from outside the package as an app sees it (`.ci/public-api`):
// - DocumentedAPI uses every call docs/Runtime.md describes, and docs/CloudKit.md's setup of an
//   app, with models the build plugin generates; it must compile, warning-free.
// - Each Misuse* target makes one call an app must not be able to make (an engine-only store
//   operation, a write as the engine, an internal of the engine, the generated models' bridge, a
//   server query the deployed schema cannot answer);
//   each must fail to compile, for the reason its first line names.
let package = Package(
    name: "PublicAPI",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(name: "syncgen", path: "../.."),
    ],
    targets: [
        .target(
            name: "DocumentedAPI",
            dependencies: [
                .product(name: "SyncRuntime", package: "syncgen"),
                .product(name: "SyncLocalCloud", package: "syncgen"),
                .product(name: "SyncTesting", package: "syncgen"),
                .product(name: "CloudKitGateway", package: "syncgen"),
            ],
            plugins: [.plugin(name: "SyncGenPlugin", package: "syncgen")]
        ),
    ] + misuses.map { name in
        // Those with a schema have models of their own, generated as an app's are.
        .target(
            name: "Misuse\(name)", dependencies: [.product(name: "SyncRuntime", package: "syncgen")], path: "Misuse/\(name)",
            plugins: withModels.contains(name) ? [.plugin(name: "SyncGenPlugin", package: "syncgen")] : [])
    },
    swiftLanguageModes: [.v6]
)

var misuses: [String] {
    ["StoreTransaction", "StorePort", "WriteAsEngine", "History", "SQLite", "EngineInternals", "GeneratedCodeHook", "EngineOverPort", "Bridge"]
        + withModels.filter { $0 != "Bridge" }
}

/// The misuses of generated models: a condition or a sort a server query may not make.
var withModels: [String] {
    ["Bridge", "ServerQueryCondition", "ServerQuerySort", "ServerQuerySearch", "ServerQueryListEquality", "LocalSearch"]
}
