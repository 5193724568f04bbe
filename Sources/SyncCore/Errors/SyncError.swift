/// Why the engine could not do what it was asked: the cloud's answer, the local store on this
/// device, or the asset cache's files. Each has its own recovery (`RecoveryPolicy.action(for:)`):
/// a store that is busy is tried again, a full disk is the user's to free, a CloudKit error is
/// handled as CloudKit says; none is mistaken for another.
public enum SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The cloud refused the request or could not be reached.
    case cloud(CloudError)
    /// The local store's database could not be read or written.
    case localStore(LocalStoreError)
    /// The asset cache's files could not be written, read or moved.
    case assetFiles(AssetError)

    /// The CloudKit error, when the cloud is what failed.
    public var cloudError: CloudError? {
        if case .cloud(let error) = self { return error }
        return nil
    }

    public var description: String {
        switch self {
        case .cloud(let error): "the cloud: \(error)"
        case .localStore(let error): "the local store: \(error)"
        case .assetFiles(let error): "the asset cache: \(error)"
        }
    }
}

/// A failure of the local store's database on this device.
public struct LocalStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it was: what decides the recovery.
    public enum Reason: String, Sendable, Hashable {
        /// Another connection (an app extension, another process) holds the database for longer
        /// than the store waits: trying again later goes through.
        case busy
        /// The device has no room left for the database to grow.
        case full
        /// The database file cannot be written (permissions, a read-only volume).
        case readOnly
        /// The database file is damaged, or is not a database.
        case corrupt
        /// The database file was written by a newer version of syncgen, whose layout this version
        /// cannot read: it is left as it is, never written.
        case newerVersion
        /// Anything else: a failed read or write of the file, a stored model that no longer
        /// decodes.
        case other
    }

    /// What kind of failure it was.
    public var reason: Reason
    /// What the store reported.
    public var message: String

    /// A failure of this kind, with what the store reported.
    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { "\(reason.rawValue): \(message)" }
}
