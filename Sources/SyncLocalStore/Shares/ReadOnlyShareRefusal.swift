import Foundation
import SyncCore

/// The app's save or deletion of a record someone else shared with this user, refused because
/// the share lets this user only read it: CloudKit would refuse the upload, and the change would
/// be reverted at the next sync. Only what the store knows of the share counts (the last pass's
/// answer); a permission lowered since is still met at the push, which reverts the change and
/// says so (`SyncEvent.changeReverted`).
public struct ReadOnlyShareRefusal: LocalizedError, Sendable, Hashable, CustomStringConvertible {
    /// The record refused.
    public var recordType: String
    public var recordName: String
    /// Whether the refused change was a save or a deletion.
    public var kind: ChangeKind
    /// The share that gives this user the record.
    public var shareID: RecordID
    /// The share's title, as its owner named it.
    public var shareTitle: String
    /// What the share lets this user do.
    public var permission: SharePermission

    /// A refusal of a change to `recordName`, which `shareID` lets this user only read.
    public init(recordType: String, recordName: String, kind: ChangeKind, shareID: RecordID, shareTitle: String, permission: SharePermission) {
        self.recordType = recordType
        self.recordName = recordName
        self.kind = kind
        self.shareID = shareID
        self.shareTitle = shareTitle
        self.permission = permission
    }

    /// What to tell the user: the share lets them only read, so their change was not kept.
    public var userMessage: UserMessage {
        shareTitle.isEmpty ? UserMessage(.readOnlyShareUntitled) : UserMessage(.readOnlyShare, arguments: [shareTitle])
    }

    public var description: String {
        let change = kind == .delete ? "deleted" : "saved"
        let share = shareTitle.isEmpty ? "the share \(shareID.recordName)" : "the share '\(shareTitle)' (\(shareID.recordName))"
        return "\(recordType) '\(recordName)' cannot be \(change): \(share) of \(shareID.zoneID.ownerName) gives this user \(permission.rawValue) permission; the owner can give readWrite"
    }

    /// The user message's text (``userMessage``).
    public var errorDescription: String? { userMessage.text }
}
