import Foundation
import Testing
@_spi(SyncgenGenerated) import SyncCore
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// Data that existed before the app turned sync on, uploaded at run time
/// (`SyncEngine.uploadEverything()`), as seed 000's library re-uploads a store it adopts: queued as
/// ordinary changes, so the push is bounded and resumable like any other. Each test runs through
/// LocalCloud's port and through the CloudKit gateway over the stand-in.
@Suite("Engine: a store's models uploaded whole, at run time")
struct EngineUploadEverythingTests {
    /// Models the history does not hold as changes (written as the engine, as a store filled
    /// before sync) are not pushed by a pass; `uploadEverything` sends each into its own
    /// database, a list before its item, the public one nowhere; asked again, it sends nothing.
    /// Breaking it (every stored model queued, as the setup's full upload once did): the second
    /// call sends the three again.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func theModelsTheCloudLacksGoUpOnceParentsFirst(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice")
        try phone.store.write(author: .sync) { writer in
            try writer.save(ListItem(recordName: "item", parent: RecordReference(recordName: "list"), assignee: .unset))
            try writer.save(SharedList(recordName: "list"))
            try writer.save(Note(recordName: "draft"))
            try writer.save(PublishedNote(recordName: "public"))
        }
        #expect(await phone.sync() == .completed)
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records.isEmpty != false, "the history holds no change")

        #expect(try await phone.engine.uploadEverything() == 3)
        let snapshot = try world.cloud.snapshot()
        #expect(snapshot.zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records.keys.sorted() == ["draft", "item", "list"])
        #expect(snapshot.publicRecords.isEmpty)
        let saves = phone.gateway.modifies.map { $0.request.recordsToSave.map(\.id.recordName) }.filter { !$0.isEmpty }
        #expect(try saves.firstIndex { $0.contains("list") }! <= #require(saves.firstIndex { $0.contains("item") }))

        let sent = phone.gateway.modifies.count
        #expect(try await phone.engine.uploadEverything() == 0)
        #expect(phone.gateway.modifies.count == sent, "nothing is sent again")
    }

    /// 450 notes the cloud lacks, and the network gone after the first request: the call throws,
    /// the first request's notes are in the cloud, and the rest stay queued, sent by the next
    /// pass with no call of the app's. Each request holds at most CloudKit's 400 items. Breaking
    /// it (the upload kept in memory, as the setup's was): the 50 left are never sent.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func anUploadCutOffGoesOnAtTheNextPass(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice")
        let names = (0..<450).map { "note-\($0)" }
        try phone.store.write(author: .sync) { writer in
            for name in names { try writer.save(Note(recordName: name, title: name)) }
        }
        #expect(await phone.sync() == .completed)
        let (cloud, firstRequest) = (world.cloud, Once())
        phone.gateway.hooks.withLock { $0.after[.modify] = { if firstRequest.first() { cloud.setNetworkAvailable(false, for: "alice-phone") } } }
        await #expect(throws: SyncError.self) { try await phone.engine.uploadEverything() }
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records.count == CloudKitLimits.maxItemsPerRequest)

        phone.gateway.hooks.withLock { $0.after[.modify] = nil }
        world.cloud.setNetworkAvailable(true, for: "alice-phone")
        #expect(await phone.sync() == .completed)
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records.keys.sorted() == names.sorted())
        #expect(phone.gateway.modifies.allSatisfy { $0.request.itemCount <= CloudKitLimits.maxItemsPerRequest })
    }
}
