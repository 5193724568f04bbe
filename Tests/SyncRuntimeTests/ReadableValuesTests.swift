import Foundation
import Testing
import SyncRuntime

/// The engine's events, statuses and results read as a person reads them in a log or a bug
/// report, never as `SyncCore.SyncEvent.changeSetAside(SyncCore.FailedChange(...))`. Breaking it
/// (an event left to Swift's default description): its text names the module's types.
@Suite("Events, statuses and results read as a person reads them")
struct ReadableValuesTests {
    static let zone = ZoneID(zoneName: "SyncgenZone", ownerName: "_alice")
    static let id = RecordID(recordName: "milk", zoneID: zone)
    static let refusal = CloudError(.permissionFailure, "read-only share")
    static let change = FailedChange(recordType: "ListItem", recordName: "milk", ownerName: "_alice", kind: .save, error: refusal, failedAt: Date(timeIntervalSince1970: 0))
    static let failure = SyncError.cloud(CloudError(.networkUnavailable, "offline"))

    /// One of every event.
    static let events: [SyncEvent] = [
        .setupCompleted, .setupFailed(failure), .accountUnavailable(.noAccount), .accountChanged(.switched(from: "_alice", to: "_bob")),
        .changesParked(ParkedChanges(userRecordName: "_alice", count: 2)), .parkedChangesRestored(count: 1), .pullStarted(.shared),
        .pullProgress(scope: .private, zone: zone, records: 3, deletions: 1), .pullCompleted(.private), .pushStarted(items: 2),
        .pushLanded(saved: [RecordKey("Note", "n1")], deleted: [RecordKey("Note", "n2")]), .pushCompleted(saved: 1, deleted: 1), .pushFailed([id: refusal]), .changeSetAside(change), .changeReverted(change),
        .recordUnreadable(UnreadableRecord(id: id, error: refusal, failedFetches: 3, firstFailedAt: Date(timeIntervalSince1970: 0))),
        .removedWithParent(RecordKey("ListItem", "milk"), parentRecordName: "groceries"), .changeLostToDeletion(RecordKey("ListItem", "milk")), .conflictResolved(id),
        .conflictRecorded(RecordConflict(id: 1, recordType: "ListItem", recordID: id, resolvedAt: Date(timeIntervalSince1970: 0),
            fields: [FieldConflict(field: "text", ancestor: nil, local: .string("a"), server: .string("b"), resolved: .string("b"))])),
        .duplicatesMerged(RecordKey("SharedList", "a"), merged: ["b"]),
        .shareAccepted(ShareMetadata(shareID: RecordID(recordName: "share-groceries", zoneID: zone), ownerName: "_alice", rootRecordName: "groceries", title: "Groceries")),
        .shareEnded(zone, rootRecordName: nil), .shareEnded(zone, rootRecordName: "groceries", lostChanges: [RecordKey("ListItem", "milk")]), .danglingReferences(["x"]), .userDeletedZone(zone), .encryptedDataReset(zone),
        .retryScheduled(after: 1.5, reason: failure), .waitingForNetwork(retryAfter: 30),
        .assetStateChanged(AssetKey(recordType: "Note", recordName: "n", field: "cover"), .cached),
        .assetTransferFailed(AssetKey(recordType: "Note", recordName: "n", field: "cover"), failure), .assetTransfersWaiting([.lowPowerMode, .expensiveNetwork]),
        .error(failure),
    ]

    @Test func everyEventReadsWithoutTypeNames() {
        for event in Self.events {
            let text = "\(event)"
            #expect(!text.contains("SyncCore.") && !text.contains("SyncEvent") && !text.isEmpty, "\(text)")
        }
        #expect("\(SyncEvent.changeSetAside(Self.change))" == "set aside: the save of ListItem milk (zone of _alice): the cloud: permissionFailure (10): read-only share")
        #expect("\(SyncEvent.pushCompleted(saved: 1, deleted: 2))" == "pushed 1 save and 2 deletions")
        #expect("\(SyncEvent.retryScheduled(after: 1.5, reason: Self.failure))" == "retrying in 1.5 s: the cloud: networkUnavailable (3): offline")
    }

    @Test func statusesAndResultsReadWithoutTypeNames() {
        var status = EngineStatus()
        status.phase = .pushing
        status.pendingChanges = 2
        status.userRecordName = "_alice"
        #expect("\(status)" == "pushing, 2 changes to push, account _alice")
        #expect("\(SyncEngine.PassResult.failed(Self.failure, .waitForNetwork))" == "failed (wait for the network): the cloud: networkUnavailable (3): offline")
        #expect("\(SyncEngine.PassResult.completed)" == "completed")
    }
}
