import Foundation
import SyncCore
import SyncPorts

// Records whose copy in a zone that moved was deleted before their moved copy was known here
// (`ZoneMoves.deferDeletion`): looked up in the zone they moved into.
extension PullPhase {
    /// Looks each noted record up in the zone it moved into, once the databases were read: found,
    /// it arrives as any pulled version (it moved); gone, its deletion arrives (it was deleted);
    /// one pulled meanwhile needs no lookup. A lookup that fails leaves the note for the next
    /// pull, and the model as it is meanwhile.
    func checkMovedCopies(state: inout PullState) async throws(SyncError) {
        // No zone moved: nothing was noted.
        guard !context.routes.moves.isEmpty else { return }
        let noted = try context.transaction { store in
            try store.stateKeys(prefix: SyncStateKeys.movedCopyToCheckPrefix).sorted().compactMap { key -> (RecordID, String)? in
                guard let id = SyncStateKeys.movedCopy(inKey: key), let recordType = try store.state(key) else { return nil }
                guard try store.serverRecord(id) == nil else {
                    try store.setState(key, nil)
                    return nil
                }
                return (id, recordType)
            }
        }
        for (scope, records) in Dictionary(grouping: noted, by: { $0.0.scope }).sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let ids = records.map(\.0)
            let found: [RecordID: Result<SyncRecord, CloudError>]
            do {
                found = try await context.cloud.fetchRecords(ids, desiredKeys: context.registry.keysWithoutAssetContents, in: scope)
            } catch {
                continue
            }
            try await account.verify()
            try applyingPulled(ids.compactMap { try? found[$0]?.get() }, state: &state) { store, state, unreadable in
                try state.localChanges.refresh(in: store)
                for (id, recordType) in records where !unreadable.contains(id) {
                    guard let type = context.registry.type(forRecordType: recordType) else { continue }
                    switch RecoveryPolicy.answer(found[id], for: id) {
                    case .done(let record):
                        try PulledPageLanding(context: context).apply(record, scope: scope, state: &state, in: store)
                    case .gone:
                        try CloudDeletionArrival(context: context).arrive(id, type: type, from: .pull(alongside: []), in: store)
                    default:
                        continue
                    }
                    try store.setState(SyncStateKeys.movedCopyToCheck(id), nil)
                }
            }
        }
    }
}
