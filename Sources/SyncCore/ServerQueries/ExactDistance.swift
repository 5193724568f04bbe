import Foundation

extension SyncLocation {
    /// The great-circle distance to `other` in meters, on a sphere of the Earth's mean radius:
    /// what `CLLocation.distance(from:)` measures, to well within a meter at a city's scale.
    package func distance(to other: SyncLocation) -> Double {
        let toRadians = Double.pi / 180
        let deltaLatitude = (other.latitude - latitude) * toRadians
        let deltaLongitude = (other.longitude - longitude) * toRadians
        let haversine = sin(deltaLatitude / 2) * sin(deltaLatitude / 2)
            + cos(latitude * toRadians) * cos(other.latitude * toRadians) * sin(deltaLongitude / 2) * sin(deltaLongitude / 2)
        return 2 * Self.meanEarthRadius * atan2(sqrt(haversine), sqrt(max(0, 1 - haversine)))
    }

    /// The Earth's mean radius in meters (IUGG).
    private static let meanEarthRadius = 6_371_008.8
}

extension FieldCondition {
    /// Whether a record the cloud answered lies within this condition's radius exactly; true for
    /// any other kind of condition. CloudKit's location index is coarse (Apple, `CKQuery`:
    /// "Location indexes have a resolution of no less than 10 km"), so a page of a small-radius
    /// query may hold records farther out: the engine drops them before the app sees the page.
    package func holdsExactly(in fields: RecordFields) -> Bool {
        guard comparison == .withinDistance else { return true }
        guard case .location(let place)? = fields[field], case .location(let center)? = values.first, case .double(let radius)? = values.last else {
            return false
        }
        return place.distance(to: center) < radius
    }
}
