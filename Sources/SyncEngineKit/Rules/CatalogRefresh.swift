import Foundation
import SyncCore
import SyncPorts

/// When a public catalog is queried again. A refresh pages through the whole catalog against the
/// app's public-database quota, so it happens when something says the catalog changed (its query
/// subscription fired, or the app asks) or when it has grown old, never because of a private
/// write. What was asked for and when each catalog was last refreshed live in the store's state,
/// so a request outlives a relaunch and a refresh cut short by one is made again.
enum CatalogRefresh {
    /// The ID of the query subscription that watches a catalog type: the one rule setup and
    /// notifications share.
    static func subscriptionID(for recordType: String, prefix: String) -> String {
        AppSubscriptions.engineID(recordType, prefix: prefix)
    }

    /// The catalog types a notification asks to refresh: the one its subscription watches, or
    /// every one when a public notification names none of them (a subscription of an older
    /// version of the app).
    static func types(notifiedBy notification: CloudNotification, prefix: String, among types: [String]) -> [String] {
        guard notification.scope == .public else { return [] }
        if let type = types.first(where: { subscriptionID(for: $0, prefix: prefix) == notification.subscriptionID }) {
            return [type]
        }
        return types
    }

    /// Asks for a refresh of each of `types` by the next pass.
    static func request(_ types: [String], in store: any EngineState) throws {
        for type in types {
            let key = SyncStateKeys.catalogRequested(type)
            try store.setState(key, String((try store.state(key).flatMap(Int.init) ?? 0) + 1))
        }
    }

    /// The catalog types a pass refreshes: the ones asked for, the ones never refreshed to the
    /// end, and the ones last refreshed `maximumAge` or more before `now` (never by age when it
    /// is nil). A refresh dated after `now` (the device's clock was set back) is due too: an age
    /// that cannot be told is taken as too old.
    static func due(_ types: [String], now: Date, maximumAge: TimeInterval?, in store: any EngineState) throws -> Set<String> {
        var due: Set<String> = []
        for type in types {
            guard try store.state(SyncStateKeys.catalogRequested(type)) == nil,
                let last = try store.state(SyncStateKeys.catalogRefreshed(type)).flatMap(TimeInterval.init)
            else {
                due.insert(type)
                continue
            }
            let age = now.timeIntervalSince1970 - last
            if let maximumAge, age < 0 || age >= maximumAge { due.insert(type) }
        }
        return due
    }

    /// The requests a refresh that begins now answers: `finish` settles these and no later ones.
    static func requests(of type: String, in store: any EngineState) throws -> String? {
        try store.state(SyncStateKeys.catalogRequested(type))
    }

    /// A refresh that began at `began` reached its end: it is dated, and the requests it answered
    /// are settled. A request made while it ran stays, for the next pass.
    static func finish(_ type: String, began: Date, answering requests: String?, in store: any EngineState) throws {
        try store.setState(SyncStateKeys.catalogRefreshed(type), String(began.timeIntervalSince1970))
        let key = SyncStateKeys.catalogRequested(type)
        if let requests, try store.state(key) == requests { try store.setState(key, nil) }
    }
}
