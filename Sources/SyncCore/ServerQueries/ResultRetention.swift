import Foundation

/// How many of a server query's results the store keeps, and for how long: the records of a
/// public catalog this device does not mirror, kept so that a screen shows its last answer
/// offline (`SyncEngine.query(_:after:keeping:)`). Counted per record type, across queries.
public struct ResultRetention: Sendable, Hashable {
    /// How many kept records of the type the store holds at most: the most recently kept.
    public var maximumCount: Int?
    /// How long a kept record stays once no page has brought it again, in seconds.
    public var maximumAge: TimeInterval?

    /// Keeps the `maximumCount` most recently kept records of the type (500 by default), each for
    /// `maximumAge` after a page last brought it (7 days by default); nil: no limit of that kind.
    public init(maximumCount: Int? = 500, maximumAge: TimeInterval? = 7 * 24 * 3600) {
        self.maximumCount = maximumCount
        self.maximumAge = maximumAge
    }
}
