import Foundation

/// A field this device and the server both changed, and how sync settled it.
public struct FieldConflict: Hashable, Sendable {
    /// The record key.
    public var field: String
    /// The value both sides started from; nil when it had none, or when this device never knew the
    /// version both started from.
    public var ancestor: SyncFieldValue?
    /// This device's value.
    public var local: SyncFieldValue?
    /// The server's value.
    public var server: SyncFieldValue?
    /// The value the merge kept.
    public var resolved: SyncFieldValue?

    /// A conflict of `field`: the value both sides started from, each side's, and the one kept.
    public init(field: String, ancestor: SyncFieldValue?, local: SyncFieldValue?, server: SyncFieldValue?, resolved: SyncFieldValue?) {
        self.field = field
        self.ancestor = ancestor
        self.local = local
        self.server = server
        self.resolved = resolved
    }

    /// The value one side had.
    public func value(_ side: ConflictSide) -> SyncFieldValue? {
        switch side {
        case .ancestor: ancestor
        case .local: local
        case .server: server
        }
    }
}

/// One of the versions a conflict was settled from.
public enum ConflictSide: Sendable, Hashable, CaseIterable {
    /// The version both sides started from.
    case ancestor
    /// This device's.
    case local
    /// The server's.
    case server
}

/// A conflict sync settled by itself: the record, when, and each field both sides changed with
/// the values it was settled from. Kept for `SyncConfiguration.conflictRetention`, so the app can
/// show it and take another side's value afterwards (`SyncStore.applyConflictValue`).
public struct RecordConflict: Hashable, Sendable, Identifiable {
    /// The store's number for it, in the order conflicts were settled.
    public var id: Int64
    /// The record's type.
    public var recordType: String
    /// The record: its name and zone.
    public var recordID: RecordID
    /// When this device settled it.
    public var resolvedAt: Date
    /// The fields both sides changed, in record key order.
    public var fields: [FieldConflict]

    /// A settled conflict.
    public init(id: Int64, recordType: String, recordID: RecordID, resolvedAt: Date, fields: [FieldConflict]) {
        self.id = id
        self.recordType = recordType
        self.recordID = recordID
        self.resolvedAt = resolvedAt
        self.fields = fields
    }

    /// The conflict of one field, if it was one of them.
    public func field(_ name: String) -> FieldConflict? {
        fields.first { $0.field == name }
    }
}

/// How long settled conflicts are kept: at most `maximumCount` of them, none older than
/// `maximumAge` (nil keeps them whatever their age).
public struct ConflictRetention: Sendable, Hashable {
    /// How many conflicts are kept at most: the newest.
    public var maximumCount: Int
    /// How old a kept conflict may grow, in seconds; nil keeps them whatever their age.
    public var maximumAge: TimeInterval?

    /// Keeps the newest `maximumCount` conflicts (1,000 by default) of the last `maximumAge`
    /// (30 days by default).
    public init(maximumCount: Int = 1_000, maximumAge: TimeInterval? = 30 * 24 * 3600) {
        self.maximumCount = maximumCount
        self.maximumAge = maximumAge
    }
}
