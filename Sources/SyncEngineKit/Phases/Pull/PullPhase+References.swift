import Foundation
import SyncCore
import SyncPorts

// References whose targets had not arrived: fetched again, a bounded number of rounds.
extension PullPhase {
    /// Fetches the targets of references that pointed at nothing, at most `repairRounds` times;
    /// what is still missing is reported, and the references stay as they are.
    func repairReferences(state: inout PullState) async throws(SyncError) {
        for _ in 0..<Self.repairRounds {
            // A target pulled later in the same pass is no longer missing.
            state.missing = try stillMissing(state.missing)
            guard !state.missing.isEmpty else { return }
            let wanted = state.missing
            state.missing = [:]
            for (scope, ids) in Dictionary(grouping: wanted.keys, by: { wanted[$0]!.scope }) {
                guard scope == .public || account.isSignedIn else { continue }
                let found: [RecordID: Result<SyncRecord, CloudError>]
                do {
                    found = try await context.cloud.fetchRecords(ids, desiredKeys: context.registry.keysWithoutAssetContents, in: scope)
                } catch {
                    for id in ids { state.missing[id] = wanted[id] }
                    continue
                }
                try await account.verify()
                let targets = ids.compactMap { try? found[$0]?.get() }
                try applyingPulled(targets, state: &state) { store, state, unreadable in
                    try state.localChanges.refresh(in: store)
                    for id in ids where !unreadable.contains(id) {
                        switch RecoveryPolicy.answer(found[id], for: id) {
                        case .done(let record):
                            try PulledPageLanding(context: context).apply(record, scope: scope, state: &state, in: store)
                        case .gone where state.orphans[id] != nil:
                            try followGoneParent(id, state: &state, in: store)
                        default:
                            state.missing[id] = wanted[id]
                        }
                    }
                }
            }
        }
        state.missing = try stillMissing(state.missing)
        if !state.missing.isEmpty {
            context.events.publish(.danglingReferences(state.missing.keys.map(\.recordName).sorted()))
        }
    }

    /// The cloud has no such parent: the records pulled under it that are still under it follow.
    func followGoneParent(_ parent: RecordID, state: inout PullState, in store: any Topics) throws {
        let chain = ParentChain(context: context)
        for child in state.orphans.removeValue(forKey: parent) ?? [] {
            guard let type = context.registry.type(forRecordType: child.recordType),
                let parentType = context.registry.parentType(of: type),
                try store.parentAndOwner(type: type, recordName: child.recordName)?.parent == parent.recordName,
                try !store.isStored(type: parentType, recordName: parent.recordName)
            else { continue }
            try chain.follow(deletedParent: parent.recordName, type: type, recordName: child.recordName, in: store)
        }
    }

    func stillMissing(_ missing: [RecordID: PullState.MissingTarget]) throws(SyncError) -> [RecordID: PullState.MissingTarget] {
        try context.transaction { store in
            try missing.filter { try !store.isStored(RecordKey($0.value.recordType, $0.key.recordName)) }
        }
    }
}
