import Foundation
import SyncCore
import SyncPorts

// What an engine takes up at its start: transfers a previous run left in flight, and entries from
// before a model could hold several assets.
extension AssetPhase {
    /// Keys the entries from before a model could hold several assets by their field
    /// (``EarlierAssetEntries``): each file moved to its field's place, then its entry keyed by
    /// the field; a crash between the two finds the file moved and moves nothing. At the engine's
    /// start, and after an account's parked entries come back.
    func nameFieldsOfEarlierEntries() throws(SyncError) {
        guard case .success(let files) = context.assetFiles else { return }
        let rule = EarlierAssetEntries(context: context)
        for (entry, named) in try context.transaction({ try rule.namings(in: $0) }) {
            do {
                try files.moveFile(of: entry.key, to: named.key, suffix: entry.suffix)
            } catch {
                throw .assetFiles(.fileSystem(named.key, "the file of an earlier version could not be moved: \(error)"))
            }
            try context.transaction { try rule.keyByField(entry, as: named, in: $0) }
        }
    }

    /// Names the fields of entries from before a model could hold several assets, takes up
    /// transfers the app's end interrupted (`uploading` -> `local`, `downloading` -> `download`,
    /// `unload` -> `remote`) and removes half-written files.
    func recoverInterruptedTransfers() throws(SyncError) {
        guard case .success(let files) = context.assetFiles else { return }
        try nameFieldsOfEarlierEntries()
        for var entry in try context.transaction({ try $0.assetEntries(in: [.uploading, .downloading, .unload]) }) {
            if entry.state == .unload { try? files.removeFile(for: entry.key, suffix: entry.suffix) }
            entry.state = entry.state.after(.interrupted) ?? entry.state
            try context.transaction { try $0.setAssetEntry(entry) }
            context.announce(entry)
        }
        do {
            try files.removeUnfinishedWrites()
        } catch {
            throw .assetFiles(.cacheFiles("the unfinished files could not be removed: \(error)"))
        }
    }
}
