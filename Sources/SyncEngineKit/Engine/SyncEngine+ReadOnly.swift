import SyncCore
import SyncPorts

// A reader of another app's public data (`SyncConfiguration.readOnly`).
extension SyncEngine {
    /// A read-only engine's pass: what the app wrote to the store is let go (never sent; the
    /// cloud's version known here takes its place, ``ChangeGivenUp``), then the public catalogs
    /// and followed records are read as by a device signed out, and the files asked for come
    /// down. No account is asked for, and nothing is set up: a zone or a subscription would be a
    /// write to the other app's container.
    func runReadingPass(_ options: SyncOptions) async throws(SyncError) {
        let letGo = try context.transaction { try ChangeGivenUp(context: context).letGoOfEveryChange(in: $0) }
        if letGo > 0 { context.log(.notice, .changes, "a read-only engine sends nothing: the app's changes of \(SyncEvent.count(letGo, "record")) let go for the cloud's") }
        let reader = PassAccount(user: nil, cloud: context.cloud)
        if options.pull { _ = try await PullPhase(context: context, account: reader, options: options).execute() }
        if options.transferAssets { try await AssetPhase(context: context).transfer(as: reader, heldBy: conditionsHoldingAssetTransfers) }
    }
}
