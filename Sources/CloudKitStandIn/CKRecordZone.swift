// Only where CloudKit does not exist (CKContainer.swift says why).
#if !canImport(CloudKit)
import Foundation

// The stand-in declares the part of CloudKit the gateway uses, with Apple's spellings, so the
// gateway's one source compiles against CloudKit on Apple platforms and against this here. It is
// never named `CloudKit` (`canImport(CloudKit)` would turn true). Types CloudKit nests
// (`CKRecordZone.ID`) are declared at the top level under their Objective-C names and nested by a
// typealias: Foundation on Linux cannot archive nested classes.

/// The owner name of the current user's own zones (Apple, `CKCurrentUserDefaultName`).
public let CKCurrentUserDefaultName = "__defaultOwner__"

/// A record zone's ID: its name and owner (Apple, `CKRecordZone.ID`).
public final class CKRecordZoneID: NSObject, NSSecureCoding, NSCopying {
    /// The name of the default zone (Apple, `CKRecordZone.ID.defaultZoneName`).
    public static let defaultZoneName = "_defaultZone"
    /// The default zone's ID (Apple, `CKRecordZone.ID.default`).
    nonisolated(unsafe) public static let `default` = CKRecordZoneID()
    public static var supportsSecureCoding: Bool { true }

    public let zoneName: String
    public let ownerName: String

    public init(zoneName: String = CKRecordZoneID.defaultZoneName, ownerName: String = CKCurrentUserDefaultName) {
        self.zoneName = zoneName
        self.ownerName = ownerName
    }

    public func encode(with coder: NSCoder) {
        coder.encode(zoneName as NSString, forKey: "zoneName")
        coder.encode(ownerName as NSString, forKey: "ownerName")
    }

    public init?(coder: NSCoder) {
        guard let zoneName = coder.decodeObject(of: NSString.self, forKey: "zoneName"),
            let ownerName = coder.decodeObject(of: NSString.self, forKey: "ownerName")
        else { return nil }
        self.zoneName = zoneName as String
        self.ownerName = ownerName as String
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CKRecordZoneID else { return false }
        return zoneName == other.zoneName && ownerName == other.ownerName
    }

    public override var hash: Int { zoneName.hashValue ^ ownerName.hashValue }
}

/// A record zone (Apple, `CKRecordZone`).
public final class CKRecordZone: NSObject {
    public typealias ID = CKRecordZoneID

    public let zoneID: CKRecordZone.ID

    public init(zoneID: CKRecordZone.ID) {
        self.zoneID = zoneID
    }

    public convenience init(zoneName: String) {
        self.init(zoneID: CKRecordZone.ID(zoneName: zoneName, ownerName: CKCurrentUserDefaultName))
    }

    public class func `default`() -> CKRecordZone {
        CKRecordZone(zoneID: CKRecordZone.ID())
    }
}
#endif
