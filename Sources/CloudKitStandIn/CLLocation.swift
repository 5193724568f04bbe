// Only where CloudKit does not exist (CKContainer.swift says why).
#if !canImport(CloudKit)
import Foundation

/// A latitude or longitude in degrees, as CoreLocation names it.
public typealias CLLocationDegrees = Double

/// A geographic position, as CoreLocation declares it (`CLLocationCoordinate2D`), for the
/// location fields of records.
public struct CLLocationCoordinate2D: Sendable {
    public var latitude: CLLocationDegrees
    public var longitude: CLLocationDegrees

    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A location (CoreLocation's `CLLocation`): what a record's location field holds.
public final class CLLocation: NSObject, NSSecureCoding, __CKRecordObjCValue {
    public static var supportsSecureCoding: Bool { true }

    public let coordinate: CLLocationCoordinate2D

    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        coordinate = CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
    }

    public func encode(with coder: NSCoder) {
        coder.encode(coordinate.latitude, forKey: "latitude")
        coder.encode(coordinate.longitude, forKey: "longitude")
    }

    public init?(coder: NSCoder) {
        coordinate = CLLocationCoordinate2D(latitude: coder.decodeDouble(forKey: "latitude"), longitude: coder.decodeDouble(forKey: "longitude"))
    }
}
#endif
