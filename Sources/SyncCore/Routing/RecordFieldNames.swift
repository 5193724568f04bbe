/// Field and member names that belong to CloudKit or to the runtime, in one place: the runtime
/// reads and writes them, and the schema validator rejects schema fields that would collide.
@usableFromInline package enum RecordFieldNames {
    /// Names CloudKit uses for every record's system fields.
    @usableFromInline package static let cloudKitSystemFields: [String] = [
        "recordName", "recordID", "recordType", "creationDate", "creatorUserRecordID",
        "modificationDate", "lastModifiedUserRecordID", "modifiedByDevice", "recordChangeTag",
        "etag", "parent", "share",
    ]

    /// Record types CloudKit defines itself.
    @usableFromInline package static let cloudKitRecordTypes: [String] = ["Users", "cloudkit.share"]

    /// The record type of the marker a zone move leaves in the zone it moved out of and the zone
    /// it moved into (`ZoneRoutes`): how every device learns the move. No model may take it.
    @usableFromInline package static let zoneMoveRecordType = "SyncgenZoneMove"

    /// The fields of a zone move's marker: the name of the zone moved, and of the zone it moved
    /// into. The pull asks for them beside the models' fields.
    @usableFromInline package static let zoneMovedFrom = "syncgenZoneFrom"
    @usableFromInline package static let zoneMovedInto = "syncgenZoneInto"

    /// Record types CloudKit or the runtime defines: a model never takes one.
    @usableFromInline package static let reservedRecordTypes: [String] = cloudKitRecordTypes + [zoneMoveRecordType]

    /// A record's name (kept on every model and in every tombstone; travels as the record ID).
    @usableFromInline package static let recordName = "recordName"
    /// The zone owner a record belongs to (kept on every model; travels as the zone, not a field).
    @usableFromInline package static let ownerName = "ownerName"
    /// The device time of a record's last local edit, compared by last-writer-wins merges.
    @usableFromInline package static let clientModifiedAt = "clientModifiedAt"
    /// The latest uploads a record's version descends from, newest first (each a random ID):
    /// what tells a device whether its upload whose reply was lost is in a version it later
    /// reads (``SyncRecord/uploadVersions``).
    @usableFromInline package static let uploadVersions = "syncgenVersions"
    /// On a copy of a natural key merged into another record: the survivor's name. A device
    /// saves it on the copy, over the version it merged, before deleting the copy, so an edit of
    /// the copy made meanwhile is merged first, and one made after goes to the survivor.
    @usableFromInline package static let mergedInto = "syncgenMergedInto"

    /// Publication lifecycle of governed catalog models, set by the publishing device.
    @usableFromInline package static let publicationState = "publicationState"
    /// Bumped by every publish of new content.
    @usableFromInline package static let publicationVersion = "publicationVersion"
    /// When the record was first published.
    @usableFromInline package static let publishedAt = "publishedAt"
    /// Publication lifecycle set by the server (review), never uploaded.
    @usableFromInline package static let reviewState = "reviewState"
    /// What the reviewer wrote.
    @usableFromInline package static let reviewNote = "reviewNote"
    /// The version the review applies to.
    @usableFromInline package static let reviewedVersion = "reviewedVersion"
    /// The lifecycle keys the publishing device writes.
    @usableFromInline package static let publicationClientFields = [publicationState, publicationVersion, publishedAt]
    /// The lifecycle keys the server writes; never uploaded.
    @usableFromInline package static let publicationServerFields = [reviewState, reviewNote, reviewedVersion]
    /// Every lifecycle key.
    @usableFromInline package static let publicationLifecycleFields = publicationClientFields + publicationServerFields

    /// Keys of a model's own stored copy that are not schema fields: CloudKit reserves `parent`, the
    /// runtime reserves `publicationLifecycle` (`modelMembers`), so neither can clash with a field.
    @usableFromInline package static let storedParent = "parent"
    @usableFromInline package static let storedLifecycle = "publicationLifecycle"

    /// Every field name the runtime adds to records.
    @usableFromInline package static let runtimeFields =
        [ownerName, clientModifiedAt, uploadVersions, mergedInto, zoneMovedFrom, zoneMovedInto] + AssetRecordKeys.first.all + publicationLifecycleFields

    /// Instance members generated model types get from the runtime's protocols; a schema field of
    /// that name would collide with them in Swift.
    @usableFromInline package static let modelMembers = [
        "recordName", "ownerName", "parent", "parentRecordName", "shareTitle",
        "publicationLifecycle", "resolvedScope", "recordID", "self", "id", "hashValue",
    ]
}
