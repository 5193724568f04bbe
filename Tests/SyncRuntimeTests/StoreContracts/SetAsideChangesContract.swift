import Foundation
import SyncCore
import SyncPorts
import Testing

/// `SetAsideChanges`: a change refused for good, one per record, kept until retried or dropped,
/// and still a change of the app's.
@Suite("Store contract: changes set aside")
struct SetAsideChangesContract {
    static func change(_ name: String, _ code: CloudErrorCode) -> FailedChange {
        FailedChange(recordType: "Note", recordName: name, ownerName: SyncConstants.currentUserOwnerName, kind: .save, error: CloudError(code), failedAt: Date(timeIntervalSince1970: 0))
    }

    /// Breaking it: a change set aside that no longer counts as the app's would be written over
    /// by the next pull.
    @Test(arguments: StoreShape.allCases)
    func aChangeSetAsideIsOnePerRecordAndStillTheApps(_ shape: StoreShape) throws {
        let contract = try ContractStore(shape)
        let (all, one, local) = try contract.transaction { (store: any SetAsideChanges & StoreHistory) in
            try store.setAside(Self.change("b", .invalidArguments))
            try store.setAside(Self.change("a", .invalidArguments))
            try store.setAside(Self.change("a", .limitExceeded))
            return (try store.failedChanges().map(\.recordName), try store.failedChange(recordType: "Note", recordName: "a"),
                    try store.hasLocalChange(recordType: "Note", recordName: "a"))
        }
        #expect(all == ["a", "b"] && one?.error.code == .limitExceeded && local)
        let left = try contract.transaction { (store: any SetAsideChanges) in
            try store.removeFailedChange(recordType: "Note", recordName: "a")
            return try store.failedChanges().map(\.recordName)
        }
        #expect(left == ["b"])
    }
}
