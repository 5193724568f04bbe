import Foundation
import SyncCore
import SyncPorts

extension SyncEngine {
    /// Moves every record of one of the user's zones into another zone of theirs, as a household
    /// app moves a person's records into the household's zone when they start sharing it whole.
    /// After the move, the models that lived in `zoneName` live in `target` on every device of
    /// the account: the schema's `zone:` is where a model starts.
    ///
    /// The call marks the move in both zones and returns; the next passes (`sync()`, or the
    /// running engine's) move the
    /// records (each saved in `target`, then its old copy deleted), and `SyncEvent.zoneMoved`
    /// says when the last one moved. Other devices learn the move from the markers before they
    /// meet a moved record, and see each record move, never a deletion and a new record. A kill
    /// at any point goes on at the next pass.
    ///
    /// A zone moves once, into a zone that did not move away (`target` may be new, or hold
    /// records already). Throws `invalidArguments` for a zone no model lives in, a target name
    /// CloudKit refuses, a zone moved already, a zone holding a share (stop sharing it first),
    /// or a zone this device does not mirror; `serverRecordChanged` when another device began
    /// moving the zone into another target first (that move stands, and this device follows it).
    ///
    /// - Parameters:
    ///   - zoneName: the zone to move; nil for the app's sync zone (`SyncConfiguration.syncZoneName`).
    ///   - target: the zone its records move into.
    public func moveZone(_ zoneName: String?, into target: String) async throws(SyncError) {
        let account = try signedInAccount()
        try await account.verify()
        let zone = ZoneID(zoneName: zoneName ?? context.configuration.syncZoneName)
        try await ZoneMovePhase(context: context).begin(moving: zone, into: target)
    }
}
