import Foundation
import SyncCore
import SyncPorts

/// When a public catalog, or a public record the app follows by its name
/// (`SyncConfiguration.followedRecords`), is read again. A catalog's refresh pages through the
/// whole catalog against the app's public-database quota, so it happens when something says the
/// catalog changed (its query subscription fired, or the app asks) or when it has grown old, never
/// because of a private write; a followed record is read by name on the same terms, with its own
/// maximum age. What was asked for and when each was last read live in the store's state, so a
/// request outlives a relaunch and a refresh cut short by one is made again.
enum CatalogRefresh {
    /// What one refresh reads: a catalog type whole, or one followed record.
    enum Target: Hashable, Sendable {
        case catalog(String)
        case record(recordType: String, recordName: String)

        var recordType: String {
            switch self {
            case .catalog(let recordType), .record(let recordType, _): recordType
            }
        }

        fileprivate var requestedKey: String {
            switch self {
            case .catalog(let recordType): SyncStateKeys.catalogRequested(recordType)
            case .record(let recordType, let recordName): SyncStateKeys.followedRecordRequested(recordType, recordName)
            }
        }

        fileprivate var refreshedKey: String {
            switch self {
            case .catalog(let recordType): SyncStateKeys.catalogRefreshed(recordType)
            case .record(let recordType, let recordName): SyncStateKeys.followedRecordRefreshed(recordType, recordName)
            }
        }
    }

    /// The ID of the query subscription that watches a public type (a catalog's, or a followed
    /// record's): the one rule setup and notifications share.
    static func subscriptionID(for recordType: String, prefix: String) -> String {
        AppSubscriptions.engineID(recordType, prefix: prefix)
    }

    /// What a notification asks to refresh, among `targets`: those of the type its subscription
    /// watches, or every one when a public notification names none of them (a subscription of an
    /// older version of the app).
    static func targets(notifiedBy notification: CloudNotification, prefix: String, among targets: [Target]) -> [Target] {
        guard notification.scope == .public else { return [] }
        let named = targets.filter { subscriptionID(for: $0.recordType, prefix: prefix) == notification.subscriptionID }
        return named.isEmpty ? targets : named
    }

    /// Asks for a refresh of each of `targets` by the next pass.
    static func request(_ targets: [Target], in store: any EngineState) throws {
        for target in targets {
            let key = target.requestedKey
            try store.setState(key, String((try store.state(key).flatMap(Int.init) ?? 0) + 1))
        }
    }

    /// Whether a pass reads `target`: asked for, never read to the end, or last read `maximumAge`
    /// or more before `now` (never by age when it is nil). A read dated after `now` (the device's
    /// clock was set back) is due too: an age that cannot be told is taken as too old.
    static func isDue(_ target: Target, now: Date, maximumAge: TimeInterval?, in store: any EngineState) throws -> Bool {
        guard try store.state(target.requestedKey) == nil, let last = try store.state(target.refreshedKey).flatMap(TimeInterval.init) else { return true }
        let age = now.timeIntervalSince1970 - last
        guard let maximumAge else { return false }
        return age < 0 || age >= maximumAge
    }

    /// The catalog types of `types` a pass refreshes (`isDue`).
    static func due(_ types: [String], now: Date, maximumAge: TimeInterval?, in store: any EngineState) throws -> Set<String> {
        Set(try types.filter { try isDue(.catalog($0), now: now, maximumAge: maximumAge, in: store) })
    }

    /// The requests a refresh that begins now answers: `finish` settles these and no later ones.
    static func requests(of target: Target, in store: any EngineState) throws -> String? {
        try store.state(target.requestedKey)
    }

    /// A refresh that began at `began` reached its end: it is dated, and the requests it answered
    /// are settled. A request made while it ran stays, for the next pass.
    static func finish(_ target: Target, began: Date, answering requests: String?, in store: any EngineState) throws {
        try store.setState(target.refreshedKey, String(began.timeIntervalSince1970))
        let key = target.requestedKey
        if let requests, try store.state(key) == requests { try store.setState(key, nil) }
    }
}
