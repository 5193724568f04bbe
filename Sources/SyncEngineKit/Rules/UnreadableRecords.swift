import Foundation
import SyncCore
import SyncPorts

/// The records pages could not deliver (`UnreadableRecord`), kept in the store's state, so a
/// relaunch forgets none: noted in the transaction of the page that listed them, forgotten in
/// the transaction that applies a version or a deletion of them, counted when a fetch by name
/// fails again. Pulls with none cost one read.
enum UnreadableRecords {
    /// What the state keeps of one record: the port's values, the error by CloudKit's number.
    private struct Kept: Codable {
        var id: RecordID
        var code: Int
        var message: String
        var failedFetches: Int
        var firstFailedAt: Date
        /// Nil in what an earlier version kept (it counted fetches for such a record instead).
        var unreadableByThisVersion: Bool?

        init(_ record: UnreadableRecord) {
            id = record.id
            code = record.error.cloudKitCode
            message = record.error.message
            failedFetches = record.failedFetches
            firstFailedAt = record.firstFailedAt
            unreadableByThisVersion = record.isUnreadableByThisVersion
        }

        var record: UnreadableRecord {
            UnreadableRecord(
                id: id, error: CloudError(cloudKitCode: code, message), failedFetches: failedFetches,
                isUnreadableByThisVersion: unreadableByThisVersion ?? false, firstFailedAt: firstFailedAt)
        }
    }

    /// Every record kept, set aside or not.
    static func all(in store: any EngineState) throws -> [UnreadableRecord] {
        try store.stateKeys(prefix: SyncStateKeys.unreadableRecordPrefix).compactMap { try read($0, in: store) }
    }

    /// A page listed `id` unreadable: kept, or kept anew (a new version of a record set aside is
    /// asked for again).
    static func note(_ id: RecordID, _ error: CloudError, at now: Date, in store: any EngineState) throws {
        let key = SyncStateKeys.unreadableRecord(id)
        let first = try read(key, in: store)?.firstFailedAt ?? now
        try write(UnreadableRecord(id: id, error: error, firstFailedAt: first), in: store)
    }

    /// Why this app's model cannot read `record` (another client wrote a value of another type
    /// into a field: text in an int, a string that is no URL in a url), or nil when it can.
    static func problem(reading record: SyncRecord, as type: any SyncModel.Type) -> CloudError? {
        do {
            _ = try type.init(record: record)
            return nil
        } catch {
            return CloudError(.internalError, "this app cannot read the record: \(error)")
        }
    }

    /// `id` arrived, and this app's model cannot read it: set aside at once (fetching it again
    /// brings the same fields), until a later version of it arrives or the app asks again.
    static func setAside(_ id: RecordID, _ error: CloudError, at now: Date, in store: any EngineState) throws -> UnreadableRecord {
        let key = SyncStateKeys.unreadableRecord(id)
        let record = UnreadableRecord(
            id: id, error: error, isUnreadableByThisVersion: true, firstFailedAt: try read(key, in: store)?.firstFailedAt ?? now)
        try write(record, in: store)
        return record
    }

    /// A fetch by name of `record` failed again; returns it as it now is.
    static func fetchFailed(_ record: UnreadableRecord, _ error: CloudError, in store: any EngineState) throws -> UnreadableRecord {
        var failed = record
        failed.error = error
        failed.failedFetches += 1
        try write(failed, in: store)
        return failed
    }

    /// The app asks for the records set aside again: each is fetched by the next pass.
    static func retrySetAside(in store: any EngineState) throws {
        for var record in try all(in: store) where record.isSetAside {
            record.failedFetches = 0
            record.isUnreadableByThisVersion = false
            try write(record, in: store)
        }
    }

    static func forget(_ id: RecordID, in store: any EngineState) throws {
        try store.setState(SyncStateKeys.unreadableRecord(id), nil)
    }

    /// A zone went away: nothing of it is asked for again.
    static func forget(zone: ZoneID, in store: any EngineState) throws {
        for key in try store.stateKeys(prefix: SyncStateKeys.unreadableRecords(in: zone)) {
            try store.setState(key, nil)
        }
    }

    private static func read(_ key: String, in store: any EngineState) throws -> UnreadableRecord? {
        try store.state(key).flatMap { try? JSONDecoder().decode(Kept.self, from: Data($0.utf8)).record }
    }

    private static func write(_ record: UnreadableRecord, in store: any EngineState) throws {
        let json = String(decoding: try JSONEncoder().encode(Kept(record)), as: UTF8.self)
        try store.setState(SyncStateKeys.unreadableRecord(record.id), json)
    }
}
