import Foundation

/// A local change the cloud refused for good (a read-only participant's edit, a record CloudKit
/// rejects): set aside with its error, so the rest of the queue moves on. It is never sent again
/// until something changes: the app edits the record again, or asks to retry it. The local model
/// keeps the change meanwhile (pulled changes are merged into it, never written over it), until
/// the app retries it or reverts it to the cloud's version.
public struct FailedChange: Sendable, Hashable {
    /// The type of the record set aside.
    public var recordType: String
    /// The name of the record set aside.
    public var recordName: String
    /// The owner of the zone the change was for.
    public var ownerName: String
    /// A save (the model as it now is) or a deletion.
    public var kind: ChangeKind
    /// Why the cloud refused it.
    public var error: CloudError
    /// When the cloud refused it (the engine's clock).
    public var failedAt: Date

    /// A change set aside with its error.
    public init(recordType: String, recordName: String, ownerName: String, kind: ChangeKind, error: CloudError, failedAt: Date) {
        self.recordType = recordType
        self.recordName = recordName
        self.ownerName = ownerName
        self.kind = kind
        self.error = error
        self.failedAt = failedAt
    }
}

/// Unpushed changes an account left when it signed out (or another signed in): kept aside,
/// never shown to or uploaded for another account, restored when that account signs in again.
public struct ParkedChanges: Sendable, Hashable, Codable {
    /// The account's user record name.
    public var userRecordName: String
    /// How many records have changes waiting.
    public var count: Int

    /// An account's parked changes.
    public init(userRecordName: String, count: Int) {
        self.userRecordName = userRecordName
        self.count = count
    }
}
