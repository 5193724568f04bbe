import Foundation

/// Who made a record and who last changed it, and when, as CloudKit keeps them
/// (`creatorUserRecordID`, `creationDate`, `lastModifiedUserRecordID`, `modificationDate`). The
/// store keeps them with the record's server version: they are never a field of the model, never
/// uploaded and never merged. People are named by their user record names, as CloudKit names
/// them to this user: the signed-in user is ``SyncConstants/currentUserOwnerName``.
///
/// A record the cloud has not seen yet was made, and last changed, by the signed-in user, with
/// no dates.
public struct RecordAuthorship: Sendable, Hashable {
    /// Who created the record.
    public var createdBy: String
    /// When the cloud first saved it; nil before it has.
    public var createdAt: Date?
    /// Who saved the version the cloud last returned.
    public var modifiedBy: String
    /// When the cloud saved that version; nil before it has.
    public var modifiedAt: Date?

    /// Authorship as the cloud reported it.
    public init(createdBy: String, createdAt: Date?, modifiedBy: String, modifiedAt: Date?) {
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.modifiedBy = modifiedBy
        self.modifiedAt = modifiedAt
    }

    /// A record the cloud has not seen: the signed-in user's, undated.
    public static let notYetInTheCloud = RecordAuthorship(
        createdBy: SyncConstants.currentUserOwnerName, createdAt: nil, modifiedBy: SyncConstants.currentUserOwnerName, modifiedAt: nil)

    /// Whether the signed-in user created the record.
    public var isCreatedByCurrentUser: Bool { createdBy == SyncConstants.currentUserOwnerName }

    /// Which of the two a query asks about.
    package enum Role: Sendable {
        case creator, lastModifier
    }

    /// The person in `role`.
    package func person(_ role: Role) -> String {
        switch role {
        case .creator: createdBy
        case .lastModifier: modifiedBy
        }
    }
}
