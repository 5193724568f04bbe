import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// `engine.diagnostics()`: where sync stands, in one value, after a scripted scenario: a
/// conflict, a change set aside, a change waiting, and an account switch that parks one.
@Suite("Engine: the diagnostics snapshot")
struct EngineDiagnosticsTests {
    static let secret = "Top secret"

    /// Breaking it (the conflict's values in the snapshot unasked): the encoded snapshot holds the
    /// secret title; (the zone's pull time not kept): the zone shows no last pull.
    @Test func theSnapshotSaysWhereSyncStandsAndNothingAUserWrote() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice", configuration: SyncConfiguration(assetCacheLimit: 1_000_000))
        let laptop = try world.device("alice-laptop", account: "alice")
        try await world.conflictAndSetAside(phone: phone, laptop: laptop, name: "n", words: Self.secret)
        try phone.store.save(Note(recordName: "waiting", title: "not pushed yet"))

        let snapshot = try phone.engine.diagnostics()
        #expect(snapshot.account == "_alice")
        let zone = try #require(snapshot.zones.first { $0.scope == .private && $0.zoneName == SyncConstants.defaultSyncZoneName })
        #expect(zone.hasToken && zone.lastPulledAt == world.clock.now)
        #expect(snapshot.pendingChanges == ["Note": 1])
        #expect(snapshot.setAside.map(\.recordName) == ["huge"] && snapshot.setAside.first?.errorCode == CloudErrorCode.limitExceeded.rawValue)
        let conflict = try #require(snapshot.recentConflicts.first)
        #expect(conflict.recordName == "n" && conflict.fields == ["title"] && conflict.values == nil)
        #expect(snapshot.assetCache.limit == 1_000_000)
        let engine = try #require(snapshot.engine)
        #expect(engine.recentTrouble.contains { $0.what.hasPrefix("set aside: the save of Note huge") })
        #expect(engine.configuration["syncZoneName"] == SyncConstants.defaultSyncZoneName)
        #expect(engine.status.contains("1 change to push") || engine.status.contains("changes to push"))

        let encoded = String(decoding: try JSONEncoder().encode(snapshot), as: UTF8.self)
        #expect(!encoded.contains(Self.secret))
        let decoded = try JSONDecoder().decode(SyncDiagnostics.self, from: Data(encoded.utf8))
        #expect(decoded == snapshot)
        let withContents = try phone.engine.diagnostics(includingContents: true)
        #expect(withContents.recentConflicts.first?.values?["title"]?.contains { $0.contains(Self.secret) } == true)

        try world.cloud.signIn("alice-phone", account: "bob")
        await phone.sync()
        let afterSwitch = try phone.engine.diagnostics()
        #expect(afterSwitch.account == "_bob")
        #expect(afterSwitch.parked == [ParkedChanges(userRecordName: "_alice", count: 2)])
        #expect(afterSwitch.pendingChanges.isEmpty && afterSwitch.setAside.isEmpty)
    }
}

extension SyncWorld {
    /// The phone's next pass meets a conflict and a change it sets aside: the laptop and the
    /// phone each retitled note `name` (the titles start with `words`), and the phone queued a
    /// note too large for any record ("huge").
    func conflictAndSetAside(phone: Device, laptop: Device, name: String, words: String) async throws {
        try phone.store.save(Note(recordName: name, title: "\(words) title"))
        await phone.sync()
        await laptop.sync()
        var there = try #require(try laptop.store.fetch(Note.self, recordName: name))
        there.title = "\(words) from the laptop"
        try laptop.store.save(there)
        await laptop.sync()
        clock.advance(by: 10)
        var here = try #require(try phone.store.fetch(Note.self, recordName: name))
        here.title = "\(words) from the phone"
        try phone.store.save(here)
        try EngineRefusalTests.queueUnchecked(Note(recordName: "huge", body: String(repeating: "x", count: CloudKitLimits.maxRecordBytes)), in: phone.store)
        await phone.sync()
    }
}

