import Foundation
import SyncCore

/// LocalCloud's form of a record's system fields: what CloudKit's `encodeSystemFields(with:)`
/// archives (the record's type and ID, and its change tag), for LocalCloud's clients to hand back.
/// Every record and share LocalCloud returns carries them, and a conditional save is based on the
/// tag they name, never on `SyncRecord.changeTag`: in CloudKit `recordChangeTag` is read-only
/// (Apple, "CKRecord.recordChangeTag": `var recordChangeTag: String? { get }`), and a record
/// rebuilt from archived system fields (Apple, "CKRecord.encodeSystemFields(with:)") is the only
/// way to save over a known version. A record saved without them is new to the cloud.
package enum LocalCloudSystemFields {
    private static let header = "LocalCloud.systemFields.1"
    /// Never part of a record type, zone or record name CloudKit accepts.
    private static let separator: Character = "\u{1F}"

    /// The system fields of a record's version. The owner is left out: a zone's owner is named
    /// differently by its owner (`__defaultOwner__`) and by others, and the zone is told by name
    /// within the database the request goes to.
    package static func archive(recordType: String, id: RecordID, changeTag: String) -> SystemFields {
        let text = [header, recordType, id.zoneID.zoneName, id.recordName, changeTag].joined(separator: String(separator))
        return SystemFields(archive: Data(text.utf8))
    }

    /// The change tag a save of `record` is based on: the one its system fields name, or nil for
    /// a record new to the cloud. System fields LocalCloud did not write, or written for another
    /// record, are refused as CloudKit refuses a malformed request.
    static func basedTag(of systemFields: SystemFields?, recordType: String, id: RecordID) throws(CloudError) -> String? {
        guard let systemFields else { return nil }
        let parts = String(decoding: systemFields.archive, as: UTF8.self).split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == header else {
            throw CloudError(.invalidArguments, "the system fields of \(id.recordName) were not archived by this cloud")
        }
        guard parts[1] == recordType, parts[2] == id.zoneID.zoneName, parts[3] == id.recordName else {
            throw CloudError(.invalidArguments, "the system fields of \(parts[1]) \(parts[3]) in \(parts[2]) cannot be saved as \(recordType) \(id.recordName) in \(id.zoneID.zoneName)")
        }
        return String(parts[4])
    }
}
