/// Field and member names that belong to CloudKit or to the runtime, in one place: the runtime
/// reads and writes them, and the schema validator rejects schema fields that would collide.
public enum RecordFieldNames {
    /// Names CloudKit uses for every record's system fields.
    public static let cloudKitSystemFields: [String] = [
        "recordName", "recordID", "recordType", "creationDate", "creatorUserRecordID",
        "modificationDate", "lastModifiedUserRecordID", "modifiedByDevice", "recordChangeTag",
        "etag", "parent", "share",
    ]

    /// Record types CloudKit defines itself.
    public static let cloudKitRecordTypes: [String] = ["Users", "cloudkit.share"]

    /// A record's name (kept on every model and in every tombstone; travels as the record ID).
    public static let recordName = "recordName"
    /// The zone owner a record belongs to (kept on every model; travels as the zone, not a field).
    public static let ownerName = "ownerName"
    /// The device time of a record's last local edit, compared by last-writer-wins merges.
    public static let clientModifiedAt = "clientModifiedAt"
    /// The latest uploads a record's version descends from, newest first (each a random ID):
    /// what tells a device whether its upload whose reply was lost is in a version it later
    /// reads (``SyncRecord/uploadVersions``).
    public static let uploadVersions = "syncgenVersions"
    /// On a copy of a natural key merged into another record: the survivor's name. A device
    /// saves it on the copy, over the version it merged, before deleting the copy, so an edit of
    /// the copy made meanwhile is merged first, and one made after goes to the survivor.
    public static let mergedInto = "syncgenMergedInto"

    /// Publication lifecycle of governed catalog models, set by the publishing device.
    public static let publicationState = "publicationState"
    /// Bumped by every publish of new content.
    public static let publicationVersion = "publicationVersion"
    /// When the record was first published.
    public static let publishedAt = "publishedAt"
    /// Publication lifecycle set by the server (review), never uploaded.
    public static let reviewState = "reviewState"
    /// What the reviewer wrote.
    public static let reviewNote = "reviewNote"
    /// The version the review applies to.
    public static let reviewedVersion = "reviewedVersion"
    /// The lifecycle keys the publishing device writes.
    public static let publicationClientFields = [publicationState, publicationVersion, publishedAt]
    /// The lifecycle keys the server writes; never uploaded.
    public static let publicationServerFields = [reviewState, reviewNote, reviewedVersion]
    /// Every lifecycle key.
    public static let publicationLifecycleFields = publicationClientFields + publicationServerFields

    /// Keys of a model's own stored copy that are not schema fields: CloudKit reserves `parent`, the
    /// runtime reserves `publicationLifecycle` (`modelMembers`), so neither can clash with a field.
    package static let storedParent = "parent"
    package static let storedLifecycle = "publicationLifecycle"

    /// Every field name the runtime adds to records.
    public static let runtimeFields = [ownerName, clientModifiedAt, uploadVersions, mergedInto] + AssetRecordKeys.first.all + publicationLifecycleFields

    /// Instance members generated model types get from the runtime's protocols; a schema field of
    /// that name would collide with them in Swift.
    public static let modelMembers = [
        "recordName", "ownerName", "parent", "parentRecordName", "shareTitle",
        "publicationLifecycle", "resolvedScope", "recordID", "self", "id", "hashValue",
    ]
}
