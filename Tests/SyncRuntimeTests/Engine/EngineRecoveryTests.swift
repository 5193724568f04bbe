import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
@testable import SyncStorage
import SyncRuntime
@testable import SyncLocalCloud

@Suite("Engine: setup, errors and recovery")
struct EngineRecoveryTests {
    @Test func everyErrorCodeHasARecoveryAction() {  // trap: T13.1
        let expected: [CloudErrorCode: RecoveryAction] = [
            .partialFailure: .report, .networkUnavailable: .waitForNetwork, .networkFailure: .waitForNetwork,
            .serviceUnavailable: .retry(after: 7), .requestRateLimited: .retry(after: 7), .zoneBusy: .retry(after: 7),
            .accountTemporarilyUnavailable: .retry(after: 7), .notAuthenticated: .stopForAccount, .permissionFailure: .skipItem,
            .unknownItem: .treatAsDone, .invalidArguments: .report, .serverRecordChanged: .mergeAndRetry,
            .changeTokenExpired: .resetToken, .batchRequestFailed: .retryWithBatch, .quotaExceeded: .tellUserQuotaExceeded,
            .zoneNotFound: .recreateZone, .limitExceeded: .splitBatch, .userDeletedZone: .askBeforeReuploading,
            .referenceViolation: .uploadParentFirst, .serverResponseLost: .retry(after: 0),
            .badDatabase: .report, .tooManyParticipants: .report, .alreadyShared: .report,
            .internalError: .report, .badContainer: .report, .missingEntitlement: .report, .resultsTruncated: .report,
            .serverRejectedRequest: .report, .assetFileNotFound: .report, .assetFileModified: .retry(after: 7),
            .incompatibleVersion: .report, .constraintViolation: .report, .operationCancelled: .retry(after: 7),
            .managedAccountRestricted: .stopForAccount, .participantMayNeedVerification: .report,
            .assetNotAvailable: .retry(after: 7), .participantAlreadyInvited: .report, .unrecognized: .report,
        ]
        for code in CloudErrorCode.allCases {
            #expect(RecoveryPolicy.action(for: CloudError(code, retryAfter: 7)) == expected[code], "\(code)")
        }
        #expect(RecoveryPolicy.action(for: CloudError(.serviceUnavailable)) == .retry(after: RecoveryPolicy.defaultRetryAfter))
    }

    /// Every number CloudKit defines (Apple, "CKError.Code": internalError 1 to
    /// participantAlreadyInvited 37) is a code of its own, and a number of a later SDK is
    /// `unrecognized` with the number kept, so it is never mistaken for another code and still
    /// has an action. Breaking it: an unknown number read as `invalidArguments` (what a stored
    /// failed change of an unknown code used to come back as) fails the last expectations.
    @Test func everyCloudKitNumberMapsToADefinedCode() {
        let known = Set(CloudErrorCode.allCases.map(\.rawValue)).subtracting([CloudErrorCode.unrecognized.rawValue])
        #expect(known == Set(1...37))
        for number in 1...37 {
            let error = CloudError(cloudKitCode: number, "from CloudKit")
            #expect(error.code.rawValue == number && error.cloudKitCode == number)
        }
        let later = CloudError(cloudKitCode: 112, "a code of a later SDK")
        #expect(later.code == .unrecognized && later.cloudKitCode == 112)
        #expect(later.description.hasPrefix("unrecognized (112)"))
        #expect(RecoveryPolicy.action(for: later) == .report)
        #expect(RecoveryPolicy.itemAction(for: later) == .setAside)
    }

    /// One record's refusal this version cannot act on (a refusal CloudKit does not explain, a
    /// constraint, an unknown code) is set aside: left waiting, it would block every change
    /// behind it. Breaking it: these codes falling to `action(for:)` (report) leaves them in the
    /// queue for good.
    @Test func anItemRefusedForGoodIsSetAside() {
        for code in [CloudErrorCode.invalidArguments, .limitExceeded, .serverRejectedRequest, .constraintViolation, .unrecognized] {
            #expect(RecoveryPolicy.itemAction(for: CloudError(code)) == .setAside, "\(code)")
        }
    }

    /// A failure of the local store is told apart from the cloud's errors, each with its own
    /// action: a store another connection holds is tried again shortly, a full device is the
    /// user's to free, a damaged or read-only store is reported. None reaches the app as a cloud
    /// error (`invalidArguments` was what every store failure used to be, which the policy read
    /// as a bug in a request).
    @Test func localStoreFailuresHaveTheirOwnActions() {
        let cases: [(Int32, LocalStoreError.Reason, RecoveryAction)] = [
            (5 /* SQLITE_BUSY */, .busy, .retry(after: RecoveryPolicy.localStoreBusyRetryAfter)),
            (6 /* SQLITE_LOCKED */, .busy, .retry(after: RecoveryPolicy.localStoreBusyRetryAfter)),
            (13 /* SQLITE_FULL */, .full, .tellUserStorageFull),
            (8 /* SQLITE_READONLY */, .readOnly, .report),
            (11 /* SQLITE_CORRUPT */, .corrupt, .report),
            (26 /* SQLITE_NOTADB */, .corrupt, .report),
            (10 /* SQLITE_IOERR */, .other, .report),
            (13 | (1 << 8) /* an extended code of SQLITE_FULL */, .full, .tellUserStorageFull),
        ]
        for (code, reason, action) in cases {
            let error = SyncError(storeFailure: LocalStoreError(SQLiteError(code: code, message: "m")))
            #expect(error == .localStore(LocalStoreError(reason, SQLiteError(code: code, message: "m").description)), "\(code)")
            #expect(RecoveryPolicy.action(for: error) == action, "\(code)")
        }
        #expect(RecoveryPolicy.retryDelay(after: .tellUserStorageFull, failuresBefore: 0) == nil)
        #expect(SyncError(storeFailure: CloudError(.zoneBusy)) == .cloud(CloudError(.zoneBusy)))
        #expect(SyncError(storeFailure: AssetError.cacheFiles("x")) == .assetFiles(.cacheFiles("x")))
    }

    /// Through the engine: a pass whose store fails ends with the store's error, never with a
    /// cloud error. Breaking it: reporting store failures as `CloudError(.invalidArguments)`
    /// again (`SyncError.reportingStoreFailures`) fails the first expectation.
    @Test func aPassWhoseStoreFailsSaysSo() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        try phone.store.save(Note(recordName: "n", title: "Milk"))
        phone.store.crash(afterCommits: 0)
        guard case .failed(let error, let action) = await phone.engine.sync() else {
            Issue.record("the pass should fail: the store cannot commit")
            return
        }
        guard case .localStore(let failure) = error else {
            Issue.record("a store failure reported as \(error)")
            return
        }
        #expect(failure.reason == .other && action == .report)
    }

    /// An app call whose store cannot commit says so with the store's own error, whose reason
    /// decides what the app does: a publish as `PublishError.store`, an asset call as
    /// `AssetError.store`, each carrying the `LocalStoreError`. Breaking it: the message-only
    /// `.store(String)` of before cannot be matched for its reason (this test no longer compiles),
    /// and a failure caught as anything but the store's reports `.other` as another case.
    @Test func appCallsWhoseStoreFailsCarryTheStoresError() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let note = Note(recordName: "n", title: "Milk")
        try phone.store.save(note)
        phone.store.crash(afterCommits: 0)
        do {
            try await phone.engine.publish(note)
            Issue.record("the publish should fail: the store cannot commit")
        } catch {
            guard case .store(let failure) = error else { Issue.record("a store failure reported as \(error)"); return }
            #expect(failure.reason == .other)
        }
        do {
            try await phone.engine.attachAsset(Data("cover".utf8), suffix: "jpg", to: \Note.cover, recordName: "n")
            Issue.record("the attach should fail: the store cannot commit")
        } catch {
            guard case .store(let failure) = error else { Issue.record("a store failure reported as \(error)"); return }
            #expect(failure.reason == .other)
        }
    }

    /// Zone creation failing for now is tried again after the server's wait, by the engine's
    /// recovery policy, until setup succeeds; then the push follows. Breaking it: a failed setup
    /// that schedules nothing (the shipped T2.1) leaves the note local for good.
    @Test func setupRetriesTransientErrorsOnlyAndThenSucceeds() async throws {  // trap: T2.1
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        world.cloud.inject(ScriptedFault(CloudError(.zoneBusy, retryAfter: 1), times: 2, on: .saveZones))
        try phone.store.save(Note(recordName: "n"))
        let events = phone.recordEvents()
        await phone.engine.start()
        // Nothing sleeps for real: each wait is on the engine's clock.
        #expect(await eventually { events.retries() == 1 && world.clock.sleeperCount == 1 })
        world.clock.advance(by: 1)
        #expect(await eventually { events.retries() == 2 && world.clock.sleeperCount == 1 })
        world.clock.advance(by: 1)
        #expect(try await eventually { try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["n"] != nil })
        #expect(events.collectedNow().filter { if case .setupFailed = $0 { true } else { false } }.count == 2)
        await phone.engine.stop()
    }

    @Test func aFailedSetupStopsThePass() async throws {  // trap: T2.2
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        world.cloud.inject(ScriptedFault(CloudError(.quotaExceeded), on: .saveZones))
        try phone.store.save(Note(recordName: "n"))
        let before = try world.cloud.counters()
        guard case .failed(let error, _) = await phone.engine.sync() else {
            Issue.record("setup should fail")
            return
        }
        #expect(error.cloudError?.code == .quotaExceeded)
        let after = try world.cloud.counters()
        #expect(after["requests.modify"] == before["requests.modify"])
        #expect(after["requests.fetchDatabaseChanges"] == before["requests.fetchDatabaseChanges"])
    }

    @Test func aDeletedZoneIsRebuiltAndReuploaded() async throws {  // trap: T2.1
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        try phone.store.save([Note(recordName: "a"), Note(recordName: "b")])
        await phone.sync()
        // Another client deleted the zone behind this device's back, and the pull has not seen it.
        let other = try world.cloud.device("script", account: "alice")
        try await other.deleteZones([ZoneID(zoneName: SyncConstants.defaultSyncZoneName)])
        try phone.store.save(Note(recordName: "c"))
        _ = await phone.engine.sync()
        await phone.sync()
        let zone = try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")
        #expect(zone?.state == "live")
        #expect(zone?.records.keys.sorted() == ["a", "b", "c"])
        #expect(try phone.store.fetchAll(Note.self).map(\.recordName) == ["a", "b", "c"])
    }

    @Test func aZoneThePurgedInSettingsIsNotSilentlyReuploaded() async throws {  // trap: T20.6
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let events = phone.recordEvents()
        try phone.store.save(Note(recordName: "a"))
        await phone.sync()
        try world.cloud.purgeZone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")
        try phone.store.save(Note(recordName: "b"))
        _ = await phone.engine.sync()
        #expect(await events.events().contains(.userDeletedZone(ZoneID(zoneName: SyncConstants.defaultSyncZoneName))))
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.state == "purged")
        // The local data is kept for when the user asks to upload it again.
        #expect(try phone.store.fetch(Note.self, recordName: "a") != nil)
    }

    @Test func retryAfterIsWaitedOutOnTheClock() async throws {  // trap: T20.2
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        await phone.sync()
        let counter = { (name: String) in try world.cloud.counters()[name] ?? 0 }
        let passes = try counter("requests.fetchDatabaseChanges")
        await phone.engine.start()
        // The pass start() runs at once (two database feeds per pass).
        #expect(try await eventually { try counter("requests.fetchDatabaseChanges") >= passes + 2 })
        world.cloud.inject(ScriptedFault(CloudError(.requestRateLimited, retryAfter: 30), on: .modify, account: "alice"))
        try phone.store.save(Note(recordName: "n"))
        // The write settles (debounce), the pass fails, and a retry waits 30 s on the clock.
        #expect(await eventually { world.clock.sleeperCount >= 1 })
        world.clock.advance(by: 0.5)
        #expect(try await eventually { try counter("requests.modify") == 1 && world.clock.sleeperCount >= 1 })
        world.clock.advance(by: 29)
        for _ in 0..<1_000 { await Task.yield() }
        #expect(try counter("records.saved") == 0)
        world.clock.advance(by: 1)
        #expect(try await eventually { try counter("records.saved") == 1 })
        await phone.engine.stop()
    }

    @Test func waitingForTheNetworkIsReArmedWithBackoff() async throws {  // trap: T13.5
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let events = phone.recordEvents()
        world.cloud.setNetworkAvailable(false, for: "alice-phone")
        for _ in 0..<3 { _ = await phone.engine.sync() }
        let waits = await events.events().compactMap { event -> TimeInterval? in
            if case .waitingForNetwork(let wait) = event { wait } else { nil }
        }
        #expect(waits == [10, 20, 40])
        #expect(RecoveryPolicy.networkBackoff(attempt: 10) == 120)
        world.cloud.setNetworkAvailable(true, for: "alice-phone")
        await phone.sync()
    }

    @Test func anOversizedBatchIsSplitInHalves() async throws {  // trap: T20.7
        let world = try SyncWorld()
        // The engine believes it may send more than the cloud accepts.
        let phone = try world.device("alice-phone", account: "alice", configuration: SyncConfiguration(maxRequestBytes: 10 * 1024 * 1024))
        let body = String(repeating: "x", count: 300_000)
        try phone.store.save((0..<10).map { Note(recordName: "n\($0)", body: body) })
        await phone.sync()
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records.count == 10)
        #expect(phone.gateway.modifies.filter { !$0.request.recordsToSave.isEmpty }.count > 2)
    }

    /// Bob edits Alice's public note: the cloud refuses it, the change is not retried, the note
    /// comes back as Alice wrote it, and the app hears that Bob's edit was reverted (an
    /// acknowledged write never leaves without an event). Breaking it (no `changeReverted` on
    /// this path) drops Bob's edit without a word.
    @Test func anotherUsersPublicRecordIsSkippedNotRetried() async throws {  // trap: T10.7
        let world = try SyncWorld()
        let alice = try world.device("alice-phone", account: "alice")
        let bob = try world.device("bob-phone", account: "bob")
        try alice.store.save(PublishedNote(recordName: "p", title: "Alice's"))
        await alice.sync()
        await bob.sync()
        var copy = try #require(try bob.store.fetch(PublishedNote.self, recordName: "p"))
        copy.title = "Bob was here"
        try bob.store.save(copy)
        let events = bob.recordEvents()
        await bob.sync()
        #expect(await events.events().contains { if case .changeReverted(let change) = $0 { change.recordName == "p" && change.error.code == .permissionFailure } else { false } })
        #expect(try !bob.store.hasUnpushedChanges())
        await bob.sync()
        #expect(try bob.store.fetch(PublishedNote.self, recordName: "p")?.title == "Alice's")
    }

    /// Bob's edits of Alice's public notes spread over more than one round of the push (2,000
    /// history entries a round, his own notes between): each refused note is sent once and named
    /// once a pass. Breaking it (as issue 57 found, 62 records named 145 times): a later round
    /// reads an earlier edit of the same note, sends it again and names it again.
    @Test func aRefusedPublicEditIsNamedOncePerPass() async throws {
        let world = try SyncWorld()
        let alice = try world.device("alice-phone", account: "alice")
        let bob = try world.device("bob-phone", account: "bob")
        try alice.store.save((0..<3).map { PublishedNote(recordName: "p\($0)", title: "Alice's \($0)") })
        await alice.sync()
        await bob.sync()
        for round in 0..<3 {
            for index in 0..<3 {
                var copy = try #require(try bob.store.fetch(PublishedNote.self, recordName: "p\(index)"))
                copy.title = "Bob was here \(round)"
                try bob.store.save(copy)
            }
            try bob.store.save((0..<PushPhase.pageSize).map { Note(recordName: "bob-\(round)-\($0)") })
        }
        let events = bob.recordEvents()
        await bob.sync()
        let named = await events.events().compactMap { if case .changeReverted(let change) = $0 { change.recordName } else { nil } }
        #expect(named.sorted() == ["p0", "p1", "p2"], "\(named)")
        let sent = bob.gateway.modifies.flatMap { $0.request.recordsToSave.map(\.id.recordName) }.filter { $0.hasPrefix("p") }
        #expect(sent.sorted() == ["p0", "p1", "p2"], "\(sent)")
        #expect(try !bob.store.hasUnpushedChanges())
    }

    /// Alice's phone uploads twenty notes, and her laptop syncs them down.
    private static func twentyNotesOnALaptop(in world: SyncWorld) async throws -> (world: SyncWorld, laptop: SyncWorld.Device) {
        let phone = try world.device("alice-phone", account: "alice")
        try phone.store.save((0..<20).map { Note(recordName: "n\($0)") })
        await phone.sync()
        let laptop = try world.device("alice-laptop", account: "alice")
        await laptop.sync()
        return (world, laptop)
    }

    @Test func tokensArePersistedNotRefetchedFromScratch() async throws {  // trap: T20.3
        let (world, laptop) = try await Self.twentyNotesOnALaptop(in: try SyncWorld())
        let fetched = try world.cloud.counters()["records.fetched"] ?? 0
        await laptop.sync()
        #expect(try world.cloud.counters()["records.fetched"] ?? 0 == fetched)
    }

    /// Change tokens are the gateway's opaque archives (CloudKit's `CKServerChangeToken` has no
    /// usable initialiser and is archived with `NSSecureCoding`), kept in the store as text.
    /// Any bytes survive the round trip, and a store written when tokens were LocalCloud's plain
    /// text keeps its place in the feeds: nothing is fetched again. Breaking it: reading a stored
    /// value only as base64 turns every legacy token into garbage, and the laptop fetches
    /// everything again (or fails on a token the cloud did not write).
    @Test func storedTokensSurviveAsArchivesAndFromTheLayoutBefore() async throws {
        let bytes = Data([0, 1, 0xFE, 0xFF, 0x3A])
        #expect(ChangeToken(storedValue: ChangeToken(archive: bytes).storedValue).archive == bytes)
        // The layout before held LocalCloud's tokens: LocalCloud's world, whatever the run.
        let (world, laptop) = try await Self.twentyNotesOnALaptop(in: try SyncWorld(throughCloudKit: false))
        let zone = ZoneID(zoneName: SyncConstants.defaultSyncZoneName)
        try laptop.store.sqliteTransaction { store in
            for key in [SyncStateKeys.databaseToken(.private), SyncStateKeys.zoneToken(zone, .private)] {
                let stored = try #require(try store.state(key))
                try store.setState(key, String(decoding: ChangeToken(storedValue: stored).archive, as: UTF8.self))
            }
        }
        let fetched = try world.cloud.counters()["records.fetched"] ?? 0
        #expect(await laptop.sync() == .completed)
        #expect(try world.cloud.counters()["records.fetched"] ?? 0 == fetched)
    }

    @Test func anExpiredTokenIsResetAndEverythingFetchedAgain() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save(Note(recordName: "a"))
        await world.syncAll()
        try world.cloud.expireChangeTokens(zone: SyncConstants.defaultSyncZoneName, ofAccount: "alice")
        try phone.store.save(Note(recordName: "b"))
        await phone.sync()
        await laptop.sync()
        #expect(try laptop.store.fetchAll(Note.self).map(\.recordName) == ["a", "b"])
    }
}
