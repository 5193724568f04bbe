import CloudKitGateway
import Foundation
import SyncRuntime

// docs/CloudKit.md's setup, whole: what an app on an Apple platform writes to sync with iCloud.
// `import CloudKitGateway` brings CloudKit's types along (CloudKit's own there, the stand-in's
// here), so this file compiles in both worlds. The few lines of UIKit that call it are in the
// docs beside it: UIKit does not exist here.

/// The app's sync: its store, and one engine over the app's CloudKit container.
final class AppSync: Sendable {
    let store: SyncStore
    let engine: SyncEngine
    let gateway: CloudKitGateway

    init(storeFile: URL) throws {
        store = SyncStore(healing: storeFile)
        gateway = CloudKitGateway(container: CKContainer(identifier: "iCloud.com.example.notes"))
        engine = SyncEngine(store: store, cloud: gateway, schema: SyncSchema.self)
    }

    /// At launch: syncs now, then after the app's writes, on the pushes of the engine's
    /// subscriptions, and when the iCloud account changes (the system's `CKAccountChanged`).
    func launch() async {
        await engine.start()
    }

    /// From `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`: true when the
    /// push brought new data, false when it brought none, nil when it is not the engine's.
    func didReceiveRemoteNotification(_ userInfo: [AnyHashable: Any]) async -> Bool? {
        switch await engine.handleRemoteNotification(userInfo) {
        case .newData: true
        case .noData: false
        case .notForSync: nil
        }
    }

    /// From `windowScene(_:userDidAcceptCloudKitShareWith:)` (or the app delegate's
    /// `application(_:userDidAcceptCloudKitShareWith:)`): the metadata of a link the user tapped.
    func userDidAcceptShare(_ metadata: CKShare.Metadata) async throws {
        try await engine.acceptShare(try CloudKitGateway.shareMetadata(metadata))
    }

    /// A share's link the app opens itself (pasted, or from its own server).
    func openShareLink(_ url: URL) async throws {
        try await engine.acceptShare(at: url)
    }

    /// The `CKShare` the system's sharing UI takes for a list (made, with no one invited yet,
    /// when the list was never shared), and the container it goes with. The sheet saves its
    /// changes to CloudKit itself; the next pass brings them to the store.
    func shareForSheet(_ list: Checklist) async throws -> (share: CKShare, container: CKContainer) {
        let share = try await gateway.systemShare(for: try await engine.shareForSystemSharing(list))
        return (share, gateway.cloudContainer)
    }
}
