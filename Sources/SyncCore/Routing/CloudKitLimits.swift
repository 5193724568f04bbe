/// CloudKit's limits, in one place. Where Apple publishes no number, the value is the one the
/// project's CloudKit semantics page fixes (and LocalCloud enforces).
public enum CloudKitLimits {
    /// Longest record type, field name or record name.
    public static let maxNameLength = 255
    /// Most items in one request: records to save plus IDs to delete in a modification, IDs in
    /// a fetch by name. Apple's `CKError.Code.limitExceeded` page names 400 items; its current
    /// CKSyncEngine page gives 250 records per request, saves and deletions together. The
    /// stricter number holds: what fits here fits CloudKit by either page.
    public static let maxItemsPerRequest = 250
    /// Largest modify request, asset contents excluded.
    public static let maxRequestBytes = 2 * 1024 * 1024
    /// Largest record, asset contents excluded.
    public static let maxRecordBytes = 1024 * 1024
    /// Most `deleteSelf` references that may point at one record.
    public static let maxDeleteSelfReferencesPerTarget = 750
    /// Most participants of one share, its owner included (Apple, `CKError.Code.tooManyParticipants`:
    /// "CloudKit generally enforces a maximum of 100 participants for a share").
    public static let maxShareParticipants = 100
}
