/// A record's identity: its name within a zone.
public struct RecordID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The record's name, unique within its zone.
    public var recordName: String
    /// The zone the record lives in.
    public var zoneID: ZoneID

    /// The record of this name in this zone.
    public init(recordName: String, zoneID: ZoneID) {
        self.recordName = recordName
        self.zoneID = zoneID
    }

    /// Derived from the zone, never stored.
    public var scope: DatabaseScope { zoneID.scope }

    public var description: String { "\(recordName) in \(zoneID)" }
}
