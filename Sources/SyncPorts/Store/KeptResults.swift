import Foundation

/// The records of public catalogs this device does not mirror that a server query's pages kept
/// (`SyncEngine.query(_:after:keeping:)`), with when each was last kept: what eviction by age
/// and count reads. One topic of ``StoreTransaction``.
package protocol KeptResults: AnyObject {
    /// Notes `recordNames` of `recordType` as kept at `date`, after every record kept before
    /// them (a record kept again is dated and ordered again).
    func noteKept(recordType: String, recordNames: [String], at date: Date) throws
    /// The kept records of `recordType` to evict, first kept first: those kept before
    /// `keptBefore` (none when nil), and all but the `keeping` last kept (none when nil).
    func keptToEvict(recordType: String, keptBefore: Date?, keeping: Int?) throws -> [String]
    /// Forgets that `recordNames` of `recordType` were kept: they were evicted.
    func forgetKept(recordType: String, recordNames: [String]) throws
}
