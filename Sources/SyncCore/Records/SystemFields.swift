import Foundation

/// A record's server metadata as its gateway archived it: CloudKit's `encodeSystemFields(with:)`
/// (the record's ID, type, change tag and share), LocalCloud's own form of the same. Opaque to
/// the engine, which keeps it with the last known server record and hands it back on the next
/// save of that record.
///
/// A save is conditional on the version these fields name, never on ``SyncRecord/changeTag``: in
/// CloudKit the change tag is read-only (`var recordChangeTag: String? { get }`), so the only way
/// to save "over the version I know" is to rebuild the record from its archived system fields. A
/// record saved without them is a new record to the cloud.
public struct SystemFields: Sendable, Hashable, Codable {
    /// The gateway's archive.
    public var archive: Data

    /// System fields as a gateway archived them.
    public init(archive: Data) {
        self.archive = archive
    }
}
