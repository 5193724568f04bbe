import Foundation

/// What to do about an error: decided by `RecoveryPolicy`, carried out by the engine.
public enum RecoveryAction: Sendable, Hashable {
    /// Try again after this many seconds (never sooner).
    case retry(after: TimeInterval)
    /// Keep the work; try again when the network is back (checked with backoff).
    case waitForNetwork
    /// The item is done (a deletion of something already gone).
    case treatAsDone
    /// Merge onto the server record (it comes with the error) and save again.
    case mergeAndRetry
    /// Split the batch in half and send both halves.
    case splitBatch
    /// The zone is missing: create it and upload its records again.
    case recreateZone
    /// Forget the change token and fetch from scratch.
    case resetToken
    /// Retry once the failing sibling in the same atomic batch is fixed.
    case retryWithBatch
    /// Upload the missing parent first, then retry; a parent deleted here takes the child with it.
    case uploadParentFirst
    /// Not allowed (another user's public record, a read-only share, an ended share): never
    /// retried as it is; the engine puts the record back as the cloud has it.
    case skipItem
    /// The cloud refuses this change for good: set it aside with its error, so the rest of the
    /// queue moves on; it is sent again only when it changes, or when the app asks.
    case setAside
    /// The account cannot sync: stop and tell the user.
    case stopForAccount
    /// The user deleted the data in Settings: tell them; re-upload only when they ask.
    case askBeforeReuploading
    /// iCloud is full: tell the user, keep everything local.
    case tellUserQuotaExceeded
    /// The device is full: the local store cannot grow. Tell the user; nothing is lost, and the
    /// next write, notification or `sync()` tries again.
    case tellUserStorageFull
    /// A bug in the request or something unexpected: report it.
    case report
}
