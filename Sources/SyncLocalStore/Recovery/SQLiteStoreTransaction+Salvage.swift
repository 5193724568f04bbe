import Foundation
import SyncCore
import SyncPorts
import SyncStorage

/// What a damaged store's file still holds of the app's that the cloud does not have: read with
/// the store's own readers, record by record, so a page SQLite cannot read costs the records on
/// it and no others.
struct Salvage {
    /// The changes read whole: the model (or its deletion), the server versions it was made over,
    /// and the entries of its files still to upload.
    var changes: [CarriedChange] = []
    var serverVersions: [SyncRecord] = []
    var assets: [AssetCacheEntry] = []
    /// The signed-in user the damaged store's data belonged to, when it could be read.
    var account: String?
    /// What could not be read, each saying what and why.
    var unreadable: [String] = []
}

extension SQLiteStoreTransaction {
    /// Reads the damaged file this transaction is over (opened to read only): never throws, each
    /// failure becomes a line of `unreadable`.
    func salvage() -> Salvage {
        var salvage = Salvage()
        salvage.account = try? state(SignedInAccountKey.stateKey)
        guard let keys = waitingRecords(&salvage) else { return salvage }
        for key in keys {
            let (type, name) = (key.recordType, key.recordName)
            do {
                let change: CarriedChange = if let row = try changes.tables.row(recordType: type, recordName: name) {
                    .save(row, of: type)
                } else {
                    .deletion(of: type, name, owner: try deletedOwner(type: type, name: name))
                }
                let versions = try serverRecordIDs(recordType: type, recordName: name).compactMap { try serverRecord($0) }
                let files = try assetEntries(recordType: type, recordName: name).filter(\.state.isAwaitingUpload)
                salvage.changes.append(change)
                salvage.serverVersions += versions
                salvage.assets += files
            } catch {
                salvage.unreadable.append("\(type) \(name): its change cannot be read (\(error))")
            }
        }
        return salvage
    }

    /// The records with something of the app's the cloud does not have: read in one go, or, where
    /// some of the history's pages cannot be read, entry by entry around them (each failed read
    /// costs the entries on the page it met, and the next read starts past them). Nil when not
    /// even the history's place (its token) can be read.
    private func waitingRecords(_ salvage: inout Salvage) -> [RecordKey]? {
        if let keys = try? recordsNotInTheCloudYet() { return keys }
        let token: Int64
        do {
            token = try historyToken()
        } catch {
            salvage.unreadable.append("the changes waiting to be pushed cannot be told from the rest (\(error))")
            return nil
        }
        var keys: Set<RecordKey> = []
        // The last entry bounds the walk; where the page holding it cannot be read, a run of
        // failed reads as long as a hundred pages of entries ends it.
        let last = (try? database.query("SELECT max(seq) FROM history").first?.integer(0)) ?? nil
        var position = token
        var missed: (first: Int64, last: Int64)?
        func noteMissed() {
            if let run = missed { salvage.unreadable.append("history entries \(run.first) to \(run.last): their changes cannot be read") }
            missed = nil
        }
        while position < (last ?? .max) {
            do {
                guard let row = try database.query("SELECT seq, type, name, author FROM history WHERE seq > ? ORDER BY seq LIMIT 1", [.integer(position)]).first else { break }
                noteMissed()
                position = row.integer(0)
                if !StoreAuthor.isEngine(storedValue: row.text(3)) { keys.insert(RecordKey(row.text(1), row.text(2))) }
            } catch {
                position += 1
                missed = (missed?.first ?? position, position)
                if last == nil, let run = missed, run.last - run.first >= 10_000 {
                    salvage.unreadable.append("history entries from \(run.first) on: their changes cannot be read")
                    missed = nil
                    break
                }
            }
        }
        noteMissed()
        if let setAside = try? setAsideRecords() { keys.formUnion(setAside) } else { salvage.unreadable.append("the changes set aside cannot be read") }
        if let owing = try? recordsOwingFiles() { keys.formUnion(owing) } else { salvage.unreadable.append("the files waiting to be uploaded cannot be read") }
        return Self.ordered(keys)
    }

    /// Writes what was salvaged into this (new) store: the changes as the app's, queued to push,
    /// the versions they were made over, the files' entries (an interrupted upload starts again),
    /// and the account they belong to.
    func carryIn(_ salvage: Salvage) throws {
        try carryIn(salvage.changes)
        for version in salvage.serverVersions { try setServerRecord(version) }
        for var entry in salvage.assets {
            entry.state = entry.state.after(.interrupted) ?? entry.state
            try setAssetEntry(entry)
        }
        if let account = salvage.account { try setState(SignedInAccountKey.stateKey, account) }
    }
}
