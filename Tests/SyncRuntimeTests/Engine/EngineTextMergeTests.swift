import Foundation
import Testing
@_spi(SyncgenGenerated) import SyncCore
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// Texts that merge (`merge: text`): two people fix typos in one note offline, and both fixes
/// survive. Each test runs through LocalCloud's port and through the CloudKit gateway over the
/// stand-in.
@Suite("Engine: texts that merge")
struct EngineTextMergeTests {
    static let models: [any SyncModel.Type] = [Memo.self]
    static let text = "Buy milk at the shpo. Call the plumbre about the sink. Water the plants."

    static func memo(_ device: SyncWorld.Device) throws -> String? {
        try device.store.fetch(Memo.self, recordName: "memo")?.body
    }

    /// Alice's phone and laptop, both holding the note with its two typos.
    static func twoDevicesWithTheNote(throughCloudKit: Bool) async throws -> (SyncWorld, SyncWorld.Device, SyncWorld.Device) {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice", models: models)
        let laptop = try world.device("alice-laptop", account: "alice", models: models)
        try phone.store.save(Memo(recordName: "memo", body: text))
        await phone.sync()
        await laptop.sync()
        return (world, phone, laptop)
    }

    static func edit(_ device: SyncWorld.Device, _ change: (String) -> String) throws {
        var memo = try #require(try device.store.fetch(Memo.self, recordName: "memo"))
        memo.body = change(memo.body)
        try device.store.save(memo)
    }

    /// Alice fixes "shpo" and Bob "plumbre", offline: both fixes are in the note on both devices
    /// and in the cloud, with no conflict kept. Breaking it (the text settled by the model's
    /// policy): the later edit's whole text wins, and Alice's fix is gone.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func typoFixesInDifferentSentencesBothSurvive(throughCloudKit: Bool) async throws {
        let (world, phone, laptop) = try await Self.twoDevicesWithTheNote(throughCloudKit: throughCloudKit)
        try Self.edit(phone) { $0.replacingOccurrences(of: "shpo", with: "shop") }
        try Self.edit(laptop) { $0.replacingOccurrences(of: "plumbre", with: "plumber") }
        await phone.sync()
        await laptop.sync()
        await phone.sync()
        let fixed = "Buy milk at the shop. Call the plumber about the sink. Water the plants."
        #expect(try Self.memo(phone) == fixed)
        #expect(try Self.memo(laptop) == fixed)
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["memo"]?.fields["body"] == .string(fixed))
        #expect(try laptop.store.recentConflicts().isEmpty)
    }

    /// Both change the same word: the later edit's word is kept, everywhere, and the conflict is
    /// kept for review with each side's text of that word. Breaking it (no conflict recorded for
    /// a part both changed): the laptop's review list is empty.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func anEditOfTheSamePartIsKeptForReview(throughCloudKit: Bool) async throws {
        let (world, phone, laptop) = try await Self.twoDevicesWithTheNote(throughCloudKit: throughCloudKit)
        try Self.edit(phone) { $0.replacingOccurrences(of: "plumbre", with: "electrician") }
        world.clock.advance(by: 5)
        try Self.edit(laptop) { $0.replacingOccurrences(of: "plumbre", with: "landlord").replacingOccurrences(of: "shpo", with: "shop") }
        await phone.sync()
        await laptop.sync()
        await phone.sync()
        let merged = "Buy milk at the shop. Call the landlord about the sink. Water the plants."
        #expect(try Self.memo(phone) == merged)
        #expect(try Self.memo(laptop) == merged)
        let kept = try laptop.store.recentConflicts().flatMap(\.fields)
        #expect(kept.map(\.local) == [.string("landlord")] && kept.map(\.server) == [.string("electrician")])
    }
}

/// A note, written by hand as syncgen writes a model whose `body` is
/// `{ type: string, merge: text }`.
struct Memo: Sendable, Hashable {
    var recordName: String
    var ownerName: String = SyncConstants.currentUserOwnerName
    var body: String = ""
}

extension Memo: SyncModel {
    static let recordType = "Memo"
    static let syncScopes: Set<DatabaseScope> = [.private]
    static let parentRecordType: String? = nil
    static var childTypes: [any SyncModel.Type] { [] }
    static let _syncFields = ModelFields<Self>(
        [.field("body", \Self.body, merge: .text)],
        tombstone: [TombstoneKeyPath("recordName", \Self.recordName), TombstoneKeyPath("ownerName", \Self.ownerName)],
        empty: { Self(recordName: $0, ownerName: $1) })

    var parentRecordName: String? { nil }
}
