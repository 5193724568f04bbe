/// A record's identity: its name within a zone.
public struct RecordID: Hashable, Sendable, Codable, CustomStringConvertible {
    public var recordName: String
    public var zoneID: ZoneID

    public init(recordName: String, zoneID: ZoneID) {
        self.recordName = recordName
        self.zoneID = zoneID
    }

    /// Derived from the zone, never stored.
    public var scope: DatabaseScope { zoneID.scope }

    public var description: String { "\(recordName) in \(zoneID)" }
}
