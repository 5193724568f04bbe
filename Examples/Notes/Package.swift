// swift-tools-version:6.0
import PackageDescription

// The Notes example: a schema folder in a target, the syncgen build plugin, and a demo that syncs
// the generated models between devices and users through a LocalCloud file.
let package = Package(
    name: "Notes",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(name: "syncgen", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "notes-demo",
            dependencies: [
                .product(name: "SyncRuntime", package: "syncgen"), .product(name: "SyncLocalCloud", package: "syncgen"),
                .product(name: "SyncTesting", package: "syncgen"),
            ],
            path: "Sources/NotesDemo",
            plugins: [.plugin(name: "SyncGenPlugin", package: "syncgen")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
