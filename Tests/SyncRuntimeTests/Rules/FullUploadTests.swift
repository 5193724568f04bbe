import Foundation
@testable import SyncEngineKit
import SyncCore
import SyncPorts
import Testing

/// ``FullUpload`` on its own: the models the cloud has no version of are queued as ordinary
/// changes, in the caller's transaction; one the cloud has, or one already waiting, is not.
@Suite("Rule: a store's models uploaded whole")
struct FullUploadTests {
    /// Notes written as the engine (no change waits) are queued, but the one with a server
    /// version and the one whose change waits already; asked again, nothing more is queued.
    /// Breaking it (every stored model queued): "synced" goes up again on every call.
    @Test func theModelsTheCloudLacksAreQueuedOnce() throws {
        let bench = try RuleBench(models: [Note.self])
        try bench.transaction { store in
            for name in ["before-sync-1", "before-sync-2", "synced"] {
                _ = try store.insertPulled(Note(recordName: name, title: name).makeRecord(syncZoneName: SyncConstants.defaultSyncZoneName), as: Note.self)
            }
            try store.setServerRecord(Note(recordName: "synced", title: "synced").makeRecord(syncZoneName: SyncConstants.defaultSyncZoneName))
        }
        try bench.store.save(Note(recordName: "waiting", title: "Saved by the app"))
        let queued = try bench.transaction { try FullUpload.queue(types: bench.context.registry.zonedTypes, in: $0) }
        #expect(queued == 2)
        #expect(try bench.transaction { try $0.recordsWithLocalChanges().records } == [RecordKey("Note", "before-sync-1"), RecordKey("Note", "before-sync-2"), RecordKey("Note", "waiting")])
        #expect(try bench.transaction { try FullUpload.queue(types: bench.context.registry.zonedTypes, in: $0) } == 0)
    }
}
