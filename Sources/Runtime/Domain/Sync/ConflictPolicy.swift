import Foundation

/// How a field both sides changed is settled.
public enum ConflictPolicy: Sendable, Hashable {
    /// The later edit (by `clientModifiedAt`) wins; a tie goes to the server.
    case lastWriterWins
    /// The server's value always wins.
    case serverWins
    /// This device's value always wins.
    case clientWins
}

/// The three-way merge of a record changed on the server and on this device, in one place: used
/// when a push meets `serverRecordChanged` and when a pull meets unpushed local edits.
public enum RecordMerge {
    /// Starts from the server record (it carries the right change tag) and, key by key of the
    /// keys this device's model owns (those `local` sets or clears): keeps the server's value
    /// where this device did not change it, takes this device's where only it changed, and
    /// settles keys both changed by `policy`. Without an ancestor every differing key counts as
    /// changed on both sides. A key the model does not own (another app version's field) is the
    /// server's, untouched. A key the merge leaves without a value is cleared.
    public static func merge(ancestor: SyncRecord?, local: SyncRecord, server: SyncRecord, policy: ConflictPolicy) -> SyncRecord {
        var merged = server
        merged.clearedKeys = []
        merged.clearedEncryptedKeys = []
        let localTime = local.clientModifiedAt ?? .distantPast
        let serverTime = server.clientModifiedAt ?? .distantPast
        let localWins: Bool
        switch policy {
        case .lastWriterWins: localWins = localTime > serverTime
        case .serverWins: localWins = false
        case .clientWins: localWins = true
        }
        let owned = Set(local.fields.names + local.encryptedFields.names).union(local.clearedKeys).subtracting([RecordFieldNames.clientModifiedAt])
        for name in owned.sorted() {
            let mine = local[field: name], theirs = server[field: name], base = ancestor?[field: name]
            let value: SyncFieldValue?
            if mine == theirs {
                value = theirs
            } else if ancestor != nil && mine == base {
                value = theirs
            } else if ancestor != nil && theirs == base {
                value = mine
            } else {
                value = localWins ? mine : theirs
            }
            let encrypted = local.encryptedFields[name] != nil || (mine == nil && server.encryptedFields[name] != nil)
            merged.fields[name] = encrypted ? nil : value
            merged.encryptedFields[name] = encrypted ? value : nil
            if value == nil { merged.clearedKeys.insert(name) }
        }
        if local.parentRecordName != server.parentRecordName, ancestor?.parentRecordName == server.parentRecordName || localWins {
            merged.parentRecordName = local.parentRecordName
        }
        merged.fields[RecordFieldNames.clientModifiedAt] = .date(max(localTime, serverTime))
        return merged
    }
}
