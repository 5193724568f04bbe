import Foundation
@_spi(SyncgenGenerated) import SyncCore
import Testing
@testable import SyncEngineKit
import SyncRuntime
@testable import SyncLocalCloud

/// The asset cache's budget by platform (`DevicePlatform.defaultAssetCacheLimit`), and a shrink the
/// app asks for under storage pressure (`SyncEngine.shrinkAssetCache(to:)`).
@Suite("Assets: the cache's budget per platform, and shrinking it")
struct AssetCacheBudgetTests {
    /// A watch holds least, a Mac most; a configuration that names no limit takes this platform's
    /// (here, Linux's). Breaking it: one default for all fails the table.
    @Test func eachPlatformHasItsBudget() {
        let megabytes = Dictionary(uniqueKeysWithValues: DevicePlatform.allCases.map { ($0, $0.defaultAssetCacheLimit / (1024 * 1024)) })
        #expect(megabytes == [.watchOS: 64, .tvOS: 256, .iOS: 512, .visionOS: 512, .macOS: 2048, .other: 512])
        #expect(DevicePlatform.current == .other, "Linux")
        #expect(SyncConfiguration().assetCacheLimit == DevicePlatform.current.defaultAssetCacheLimit)
    }

    static func state(_ device: SyncWorld.Device, _ name: String) async throws -> AssetCacheState? {
        try await device.engine.assetEntry(for: \Note.cover, recordName: name)?.state
    }

    /// Four notes' files in the cloud, one of them pinned, and a fifth attached offline; one file
    /// evicted before is asked for again. Shrinking to nothing takes every file the cloud holds and
    /// nobody pinned, and nothing else: the pinned file, the one not uploaded, the one asked for
    /// stay as they were; what is left is said. Each one taken is downloaded again when asked.
    /// A shrink to a size takes the least recently read first, and no more than it needs.
    /// Breaking it (eviction taking any entry): the file not uploaded is lost.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func shrinkingTakesOnlyWhatTheCloudHolds(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("phone", account: "alice")
        try phone.store.save(["a", "b", "c", "e", "f"].map { Note(recordName: $0) })
        for name in ["a", "b", "c", "e", "f"] {
            try await phone.engine.attachAsset(picture(100), suffix: "jpg", to: \Note.cover, recordName: name, pinned: name == "a")
            world.clock.advance(by: 1)
        }
        #expect(await phone.sync() == .completed)
        #expect(try await phone.engine.shrinkAssetCache(to: 350) == 300, "b and c, the least recently read, go first")
        #expect(try await Self.state(phone, "b") == .remote)
        #expect(try await Self.state(phone, "c") == .remote)
        #expect(try await Self.state(phone, "e") == .cached)

        try await phone.engine.requestAssetDownload(for: \Note.cover, recordName: "b")
        try phone.store.save(Note(recordName: "d"))
        try await phone.engine.attachAsset(picture(100), suffix: "jpg", to: \Note.cover, recordName: "d")
        #expect(try await phone.engine.shrinkAssetCache() == 200, "the pinned file and the one not uploaded are left")
        #expect(try await Self.state(phone, "a") == .cached, "pinned")
        #expect(try await Self.state(phone, "d") == .local, "not in the cloud yet")
        #expect(try await Self.state(phone, "b") == .download, "asked for")
        #expect(try await Self.state(phone, "e") == .remote)
        #expect(try await Self.state(phone, "f") == .remote)

        #expect(await phone.sync() == .completed)
        #expect(try await Self.state(phone, "b") == .cached, "downloaded again")
        #expect(try await Self.state(phone, "d") == .cached, "uploaded")
        let url = try #require(try await phone.engine.assetFileURL(for: \Note.cover, recordName: "b"))
        #expect(try Data(contentsOf: url) == picture(100))
    }
}
