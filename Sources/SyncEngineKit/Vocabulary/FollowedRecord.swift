import Foundation
import SyncCore

/// A public record the device keeps by its name, without mirroring its type: a remote
/// configuration, an announcement (`SyncConfiguration.followedRecords`). Each pass reads it by
/// name when it is due (never read, asked for by its type's subscription or
/// `SyncEngine.refreshCatalogs()`, or `maximumAge` old), and the store holds the cloud's version,
/// which the app reads and observes like any model, offline too; when the cloud has none, neither
/// does the store.
public struct FollowedRecord: Sendable, Hashable {
    /// The record type of the model the record is read as.
    public let recordType: String
    /// The record's name in the public database.
    public let recordName: String
    /// How old the copy may grow before a pass reads it again, in seconds; nil: only when the
    /// subscription or the app asks.
    public var maximumAge: TimeInterval?
    /// The model type, for the engine to read the record with.
    let type: any PublicCatalogModel.Type

    /// The record of `Model` named `recordName`, read again once `maximumAge` old (an hour by
    /// default).
    public init<Model: PublicCatalogModel>(_ type: Model.Type, named recordName: String, maximumAge: TimeInterval? = 3600) {
        self.type = type
        self.recordType = Model.recordType
        self.recordName = recordName
        self.maximumAge = maximumAge
    }

    public static func == (lhs: FollowedRecord, rhs: FollowedRecord) -> Bool {
        (lhs.recordType, lhs.recordName, lhs.maximumAge) == (rhs.recordType, rhs.recordName, rhs.maximumAge)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(recordType)
        hasher.combine(recordName)
        hasher.combine(maximumAge)
    }

    /// Its refresh, as ``CatalogRefresh`` dates and requests it.
    var refresh: CatalogRefresh.Target { .record(recordType: recordType, recordName: recordName) }
}
