import Foundation
import SyncCore

extension LocalCloudSnapshot {
    /// The server's state as stable text, for a test to say "after this, the cloud holds this"
    /// in one expectation. A zone a line (owner, name, state), then a record a line (type, name,
    /// its parent, its fields by name), the deleted names, the shares with their people, and the
    /// memberships. Zones that are live and hold nothing are left out, and so is what differs
    /// from run to run or says nothing of the data: change tags and dates the server stamps,
    /// upload IDs (`syncgenVersions`), the device's edit time (`clientModifiedAt`), an asset's
    /// file (shown as `asset`), a share's URL, and the counters.
    public var text: String {
        var lines: [String] = []
        for zone in zones.sorted(by: { ($0.owner, $0.name) < ($1.owner, $1.name) }) {
            guard zone.state != "live" || !zone.records.isEmpty || !zone.tombstones.isEmpty || !zone.shares.isEmpty else { continue }
            lines.append("zone \(zone.owner) \(zone.name)" + (zone.state == "live" ? "" : " (\(zone.state))"))
            for name in zone.records.keys.sorted() {
                lines.append("  " + Self.line(zone.records[name]!))
            }
            if !zone.tombstones.isEmpty {
                lines.append("  deleted " + zone.tombstones.sorted().joined(separator: ", "))
            }
            for name in zone.shares.keys.sorted() {
                let share = zone.shares[name]!
                lines.append("  share \(name)" + (share.rootRecordName.map { " of \($0)" } ?? " of the zone") + ", link \(share.publicPermission.rawValue)")
                for person in share.participants.sorted(by: { Self.who($0) < Self.who($1) }) {
                    lines.append("    \(Self.who(person)) \(person.role.rawValue) \(person.permission.rawValue) \(person.acceptanceStatus.rawValue)")
                }
            }
        }
        for membership in memberships.sorted(by: { ($0.user, $0.owner, $0.zone, $0.share) < ($1.user, $1.owner, $1.zone, $1.share) }) {
            lines.append("member \(membership.user) of \(membership.owner) \(membership.zone) by \(membership.share), \(membership.permission.rawValue)" + (membership.isActive ? "" : ", inactive"))
        }
        return lines.joined(separator: "\n")
    }

    /// Fields the text leaves out: they differ from run to run, or say nothing of the data.
    private static let volatileFields: Set<String> = [RecordFieldNames.uploadVersions, RecordFieldNames.clientModifiedAt]

    private static func line(_ record: SyncRecord) -> String {
        var fields: [(String, String)] = []
        for (name, value) in record.fields where !volatileFields.contains(name) { fields.append((name, text(value))) }
        for (name, value) in record.encryptedFields { fields.append((name, "(encrypted) " + text(value))) }
        let parent = record.parentRecordName.map { " under \($0)" } ?? ""
        let values = fields.sorted { $0.0 < $1.0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
        return "\(record.recordType) \(record.id.recordName)\(parent)" + (values.isEmpty ? "" : ": " + values)
    }

    private static func text(_ value: SyncFieldValue) -> String {
        switch value {
        case .date(let date): date.formatted(.iso8601)
        case .asset: "asset"
        case .list(let items): "[" + items.map(text).joined(separator: ", ") + "]"
        default: value.description
        }
    }

    private static func who(_ participant: ShareParticipant) -> String {
        participant.userRecordName ?? participant.lookup.map { "\($0)" } ?? "someone"
    }
}
