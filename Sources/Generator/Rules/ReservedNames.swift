/// Names a schema cannot use because CloudKit or the syncgen runtime already uses them: the one
/// list the validator checks and the runtime's field names come from.
public enum ReservedNames {
    /// Field names CloudKit uses for every record's system fields.
    public static let cloudKitSystemFields: [String] = [
        "recordName", "recordID", "recordType", "creationDate", "creatorUserRecordID",
        "modificationDate", "lastModifiedUserRecordID", "modifiedByDevice", "recordChangeTag",
        "etag", "parent", "share",
    ]

    /// Fields the runtime adds to records itself.
    public enum RuntimeField {
        /// The zone owner a record belongs to (private and shared scopes).
        public static let ownerName = "ownerName"
        /// The device time of the last local edit, compared by last-writer-wins conflict merges.
        public static let clientModifiedAt = "clientModifiedAt"
        /// The contents of a model's asset field (a CKAsset).
        public static let assetData = "assetData"
        /// The asset file's suffix ("jpg"), so a new device can name its cached copy.
        public static let assetSuffix = "assetSuffix"
        /// The asset's size in bytes: the fingerprint that tells a catalog reader its copy is stale.
        public static let assetSize = "assetSize"
        /// Publication lifecycle of governed catalog models: listed or delisted (client-owned).
        public static let publicationState = "publicationState"
        /// Publication lifecycle: a counter bumped by every publish of new content (client-owned).
        public static let publicationVersion = "publicationVersion"
        /// Publication lifecycle: when the record was first published (client-owned).
        public static let publishedAt = "publishedAt"
        /// Publication lifecycle: the review verdict (server-owned, never uploaded).
        public static let reviewState = "reviewState"
        /// Publication lifecycle: the reviewer's note (server-owned, never uploaded).
        public static let reviewNote = "reviewNote"
        /// Publication lifecycle: the publication version the review applies to (server-owned).
        public static let reviewedVersion = "reviewedVersion"

        public static let assetFields = [assetData, assetSuffix, assetSize]
        public static let publicationLifecycleFields = [
            publicationState, publicationVersion, publishedAt, reviewState, reviewNote, reviewedVersion,
        ]
        public static let all = [ownerName, clientModifiedAt] + assetFields + publicationLifecycleFields
    }

    /// Record types CloudKit defines itself.
    public static let cloudKitRecordTypes: [String] = ["Users", "cloudkit.share"]

    /// Why a field may not be called `name`, or nil when it may.
    public static func fieldNameProblem(_ name: String) -> String? {
        if cloudKitSystemFields.contains(name) {
            return "'\(name)' is a CloudKit system field"
        }
        if RuntimeField.assetFields.contains(name) {
            return "'\(name)' is added by the syncgen runtime for a model's asset"
        }
        if RuntimeField.publicationLifecycleFields.contains(name) {
            return "'\(name)' is added by the syncgen runtime to governed catalog models"
        }
        if RuntimeField.all.contains(name) {
            return "'\(name)' is added by the syncgen runtime to every record"
        }
        return nil
    }
}
