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
    /// Starts from the server record (it carries the right change tag) and, key by key: keeps the
    /// server's value where this device did not change it, takes this device's where only it
    /// changed, and settles keys both changed by `policy`. Without an ancestor every differing key
    /// counts as changed on both sides.
    public static func merge(ancestor: SyncRecord?, local: SyncRecord, server: SyncRecord, policy: ConflictPolicy) -> SyncRecord {
        var merged = server
        let localTime = local.clientModifiedAt ?? .distantPast
        let serverTime = server.clientModifiedAt ?? .distantPast
        let localWins: Bool
        switch policy {
        case .lastWriterWins: localWins = localTime > serverTime
        case .serverWins: localWins = false
        case .clientWins: localWins = true
        }
        for encrypted in [false, true] {
            let localFields = encrypted ? local.encryptedFields : local.fields
            let serverFields = encrypted ? server.encryptedFields : server.fields
            let ancestorFields = encrypted ? ancestor?.encryptedFields : ancestor?.fields
            let names = Set(localFields.names + serverFields.names + (ancestorFields?.names ?? []))
                .subtracting([RecordFieldNames.clientModifiedAt])
            for name in names.sorted() {
                let mine = localFields[name], theirs = serverFields[name], base = ancestorFields?[name]
                let value: SyncFieldValue?
                if mine == theirs {
                    value = theirs
                } else if ancestorFields != nil && mine == base {
                    value = theirs
                } else if ancestorFields != nil && theirs == base {
                    value = mine
                } else {
                    value = localWins ? mine : theirs
                }
                if encrypted { merged.encryptedFields[name] = value } else { merged.fields[name] = value }
            }
        }
        if local.parentRecordName != server.parentRecordName, ancestor?.parentRecordName == server.parentRecordName || localWins {
            merged.parentRecordName = local.parentRecordName
        }
        merged.fields[RecordFieldNames.clientModifiedAt] = .date(max(localTime, serverTime))
        return merged
    }
}
