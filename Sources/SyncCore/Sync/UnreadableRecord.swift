import Foundation

/// A record the cloud listed as changed (in a zone's changes or a catalog's query) but could not
/// deliver: CloudKit answered a failed result for it inside a good page, or this app version
/// cannot read what it holds. The rest of the page was applied without it, so its zone moves on;
/// the record is fetched again by name at each pass, and set aside once that failed
/// `fetchesBeforeSetAside` times in a row; one whose fields this app's model cannot read (a value
/// of another type) is set aside at once, since a fetch brings the same fields. A later version
/// of it, or its deletion, arriving in the feed ends the matter by itself.
public struct UnreadableRecord: Sendable, Hashable {
    /// How many fetches by name in a row may fail before the record is set aside: after that the
    /// engine asks for it again only when the app says so (`SyncEngine.retryUnreadableRecords()`).
    public static let fetchesBeforeSetAside = 3

    /// The record, in its zone (the zone tells the database).
    public var id: RecordID
    /// Why it could not be read, the last time.
    public var error: CloudError
    /// Fetches by name that failed since it was last listed unreadable.
    public var failedFetches: Int
    /// When a page first listed it unreadable (the engine's clock).
    public var firstFailedAt: Date
    /// Whether it arrived holding what this app version's model cannot read (a value of another
    /// type): set aside at once, with no fetch, since a fetch brings the same fields.
    public var isUnreadableByThisVersion: Bool

    /// Whether the engine stopped asking for it by itself.
    public var isSetAside: Bool { isUnreadableByThisVersion || failedFetches >= Self.fetchesBeforeSetAside }

    /// A record a page could not deliver.
    public init(id: RecordID, error: CloudError, failedFetches: Int = 0, isUnreadableByThisVersion: Bool = false, firstFailedAt: Date) {
        self.id = id
        self.error = error
        self.failedFetches = failedFetches
        self.isUnreadableByThisVersion = isUnreadableByThisVersion
        self.firstFailedAt = firstFailedAt
    }
}
