import Foundation

/// A push the app received (the `userInfo` its app delegate is handed), in a form that crosses
/// into the engine: the property-list dictionary as JSON. The gateway reads it back to tell
/// whether it is one of its own notifications.
public struct RemoteNotificationPayload: Sendable, Hashable {
    /// The payload, as JSON with sorted keys.
    public let json: Data

    /// The payload of a push; nil when it is not a property list with string keys (never a
    /// push of CloudKit's, whose payloads always are).
    public init?(userInfo: [AnyHashable: Any]) {
        var dictionary: [String: Any] = [:]
        for (key, value) in userInfo {
            guard let key = key as? String else { return nil }
            dictionary[key] = value
        }
        guard JSONSerialization.isValidJSONObject(dictionary),
            let json = try? JSONSerialization.data(withJSONObject: dictionary, options: [.sortedKeys])
        else { return nil }
        self.json = json
    }

    /// The payload as a dictionary again, for a gateway to read (CloudKit's
    /// `CKNotification(fromRemoteNotificationDictionary:)` takes it).
    public var dictionary: [String: Any] {
        (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] ?? [:]
    }
}

/// What a push meant, as the system asks an app's background handler to say. Never "failed":
/// the system throttles the background pushes of an app that reports failures, and live sync
/// would then lag by minutes; a pass that fails is retried by the engine itself.
public enum RemoteNotificationResult: Sendable, Hashable {
    /// Not one of the engine's notifications (another service's push, or a subscription of
    /// another engine): nothing was done.
    case notForSync
    /// A pass ran and brought nothing new (or could not run now: it is retried).
    case noData
    /// A pass ran and brought changes in.
    case newData
}
