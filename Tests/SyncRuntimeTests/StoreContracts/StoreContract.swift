import Foundation
@testable import SyncLocalStore
import SyncCore
import SyncPorts
import SyncTesting
import Testing

/// The store's ports as the engine relies on them: one contract suite per topic
/// (`Sources/SyncPorts/Store/`), each test written against the topic's protocol alone and run on
/// the store in both shapes an app opens (in memory, and on file). A store that keeps a topic's
/// promise passes its suite whatever its tables look like; the rules' tests (Rules/) and the
/// store's own tests (LocalStore/) stand on these promises.
enum StoreShape: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory, file

    var testDescription: String { rawValue }
}

/// A fresh store of one shape, and a transaction on it.
struct ContractStore {
    let store: SyncStore
    /// The store's clock: a test moves it where the order of writes in time is the promise.
    let clock = ManualClock()
    private let folder: URL?

    init(_ shape: StoreShape) throws {
        switch shape {
        case .memory:
            folder = nil
            store = try SyncStore(url: nil, clock: clock)
        case .file:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("syncgen-contract-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            self.folder = folder
            store = try SyncStore(url: folder.appendingPathComponent("store.sqlite"), clock: clock)
        }
    }

    /// `body` in one transaction, as the engine opens it.
    func transaction<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        try store.transaction(body)
    }

    static let zone = ZoneID(zoneName: "SyncgenZone")

    static func note(_ name: String, _ title: String = "", tag: String? = nil) -> SyncRecord {
        var record = Note(recordName: name, title: title.isEmpty ? name : title).makeRecord(syncZoneName: zone.zoneName)
        record.changeTag = tag
        return record
    }
}
