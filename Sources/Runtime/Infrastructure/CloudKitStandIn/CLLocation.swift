import Foundation

/// A geographic position, as CoreLocation declares it (`CLLocationCoordinate2D`), for the
/// location fields of records.
public struct CLLocationCoordinate2D: Sendable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A location (CoreLocation's `CLLocation`): what a record's location field holds.
public final class CLLocation: NSObject, NSSecureCoding, __CKRecordObjCValue {
    public static var supportsSecureCoding: Bool { true }

    public let coordinate: CLLocationCoordinate2D

    public init(latitude: Double, longitude: Double) {
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
