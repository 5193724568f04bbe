import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncLocalCloud
import SyncRuntime

/// The windows `notes-demo soak-keys` lost acknowledged list labels in, each opened on purpose:
/// a device's pass stopped at a request (``Interleaving``) while an app writes, or killed there
/// and started again on its store, or cut at each commit. `SharedList`'s title is its natural key
/// and its `labels` merge as a union: what either side added, less what either side removed,
/// against the version both started from. A wrong starting version brings a removed label back,
/// or takes one away.
@Suite("Engine: natural keys, the windows between a request and its reply")
struct NaturalKeyWindowTests {
    /// Alice's phone and laptop, each with its store in a file (a killed device starts again on
    /// it); the requests of the devices `stepping` names stop where `interleaving` says.
    final class Pair {
        let world: SyncWorld
        let interleaving = Interleaving()
        let folder: URL
        var phone: SyncWorld.Device
        var laptop: SyncWorld.Device

        init(stepping: Set<String>) throws {
            let world = try SyncWorld()
            let folder = world.assetFolder.appendingPathComponent("stores")
            (self.world, self.folder) = (world, folder)
            phone = try Self.open("alice-phone", in: world, folder: folder)
            laptop = try Self.open("alice-laptop", in: world, folder: folder)
            for device in [phone, laptop] where stepping.contains(device.name) { interleaving.attach(device) }
        }

        private static func open(_ name: String, in world: SyncWorld, folder: URL) throws -> SyncWorld.Device {
            try world.device(name, account: "alice", store: SyncStore(url: folder.appendingPathComponent("\(name).sqlite"), clock: world.clock))
        }

        /// `device` killed where its pass stopped, and its app started again on its store file,
        /// its requests stopping no more.
        func restart(_ device: SyncWorld.Device) async throws -> SyncWorld.Device {
            interleaving.kill(device.name)
            await interleaving.stopStepping(device.name)
            return try Self.open(device.name, in: world, folder: folder)
        }

        /// Starts `device`'s pass and lets it on until it stops at `point` for the `occurrence`th
        /// time; false when the pass ended first.
        func run(_ device: SyncWorld.Device, until point: Interleaving.Point, occurrence: Int = 1) async -> Bool {
            let engine = device.engine
            await interleaving.start(device.name) { _ = await engine.sync() }
            var seen = 0
            while interleaving.isRunning(device.name) {
                if interleaving.point(of: device.name) == point {
                    seen += 1
                    if seen == occurrence { return true }
                }
                await interleaving.resume(device.name)
            }
            return false
        }

        /// Lets `device`'s pass go on to its end.
        func finish(_ device: SyncWorld.Device) async {
            while interleaving.isRunning(device.name) { await interleaving.resume(device.name) }
        }

        func syncAll() async {
            await interleaving.stopStepping()
            for _ in 0..<2 {
                await laptop.sync()
                await phone.sync()
            }
        }

        func labels(_ name: String, on device: SyncWorld.Device) throws -> Set<String>? {
            try device.store.fetch(SharedList.self, recordName: name).map { Set($0.labels) }
        }

        func cloudLists() throws -> [String: SyncRecord] {
            let records = try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records ?? [:]
            return records.filter { $0.value.recordType == SharedList.recordType }
        }

        /// Both devices and the cloud hold `survivor` with `labels`, and no other list (a copy
        /// merged into it stays in the cloud, marked).
        func expectOneList(_ survivor: String, labels: Set<String>, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            for device in [phone, laptop] {
                #expect(try device.store.fetchAll(SharedList.self).map(\.recordName) == [survivor], "\(context): \(device.name)", sourceLocation: sourceLocation)
                #expect(try self.labels(survivor, on: device) == labels, "\(context): \(device.name)", sourceLocation: sourceLocation)
                #expect(try !device.store.hasUnpushedChanges(), "\(context): \(device.name) still has changes to push", sourceLocation: sourceLocation)
            }
            let lists = try cloudLists()
            #expect(lists.filter { $0.value.mergedInto == nil }.keys.sorted() == [survivor], "\(context): the cloud", sourceLocation: sourceLocation)
            let held: Set<String>? = if case .list(let items)? = lists[survivor]?.fields["labels"] {
                Set(items.compactMap { if case .string(let label) = $0 { label } else { nil } })
            } else { nil }
            #expect(held == labels, "\(context): the cloud", sourceLocation: sourceLocation)
        }
    }

    static func editLabels(_ name: String, on device: SyncWorld.Device, adding: [String] = [], removing: [String] = []) throws {
        var list = try #require(try device.store.fetch(SharedList.self, recordName: name))
        list.labels.removeAll { removing.contains($0) }
        list.labels += adding
        try device.store.save(list)
    }

    /// The phone's push of a new list lands, and the phone is killed before it reads the reply:
    /// it never learns the version it made. Started again, it removes a label while the laptop
    /// adds one, and (the second time) saves the list 20 times more, more saves than a version
    /// remembers uploads (`SyncRecord.uploadVersionsKept`). The list as the phone sent it is what
    /// its removal starts from, so the label stays removed, and the laptop's stay.
    ///
    /// Breaking it: keeping a save as sent only once its reply is lost (`serverResponseLost`),
    /// not before it goes (`noteSent` in `PushPhase.sendChunk`), merges the pulled list with no
    /// version to start from, as a union of both: "milk" comes back. So does a version that
    /// remembers only the last 16 uploads, whoever made them (`stampUpload` without one per
    /// device), after 20 saves of the laptop's.
    @Test(arguments: [1, 20])
    func aSaveWhoseReplyWasNeverReadIsWhatLaterEditsStartFrom(laptopSaves: Int) async throws {
        let pair = try Pair(stepping: ["alice-phone"])
        try pair.phone.store.save(SharedList(recordName: "groceries", title: "Groceries", labels: ["milk", "eggs"]))
        #expect(await pair.run(pair.phone, until: .after(.modify)))
        pair.phone = try await pair.restart(pair.phone)

        await pair.laptop.sync()
        var added: Set<String> = []
        for save in 0..<laptopSaves {
            try Self.editLabels("groceries", on: pair.laptop, adding: ["bread\(save)"])
            added.insert("bread\(save)")
            await pair.laptop.sync()
        }
        try Self.editLabels("groceries", on: pair.phone, removing: ["milk"])
        await pair.syncAll()
        try pair.expectOneList("groceries", labels: added.union(["eggs"]), "killed before the reply, then \(laptopSaves) saves of the laptop")
        await pair.interleaving.releaseKilled()
    }

    /// The laptop merges its own "Groceries" (not in the cloud yet; the smaller name, so the
    /// survivor) with the phone's, and retires the phone's: the survivor goes up holding the
    /// copy. While that request is out, the laptop's app removes a label from the survivor; the
    /// reply is read, or never (the laptop killed, then started again). Either way the survivor
    /// gains the phone's label and keeps the removal: the survivor as the laptop held it when it
    /// sent the request is what its edit since starts from, not the version the cloud returned
    /// (the copy's label would read as removed here) and not nothing (a union: "old" back).
    ///
    /// Breaking it: `RetirementPhase` keeping the request's survivor as sent instead of the
    /// survivor as held (`held`) loses "phone"; keeping nothing brings "old" back.
    @Test(arguments: [false, true])
    func anEditOfTheSurvivorWhileItsRetirementIsOut(killed: Bool) async throws {  // trap: T21.30
        let pair = try Pair(stepping: ["alice-laptop"])
        try pair.phone.store.save(SharedList(recordName: "b-groceries", title: "Groceries", labels: ["phone"]))
        await pair.phone.sync()
        try pair.laptop.store.save(SharedList(recordName: "a-groceries", title: "Groceries", labels: ["laptop", "old"]))
        // The laptop's first save request of its pass is the retirement (it runs before the push).
        #expect(await pair.run(pair.laptop, until: .after(.modify)))
        try Self.editLabels("a-groceries", on: pair.laptop, removing: ["old"])
        if killed {
            pair.laptop = try await pair.restart(pair.laptop)
        } else {
            await pair.finish(pair.laptop)
        }
        await pair.syncAll()
        try pair.expectOneList("a-groceries", labels: ["laptop", "phone"], killed ? "killed before the reply" : "the reply read")
        #expect(try pair.cloudLists()["b-groceries"]?.mergedInto == "a-groceries")
        await pair.interleaving.releaseKilled()
    }

    /// The laptop retires the phone's copy of "Groceries" into its own; the phone, which holds
    /// only its copy, adds a label to it and removes another at each step of that retirement:
    /// before the laptop's pass, at every request of it (before it goes, and after the cloud
    /// answered and before the laptop read the answer), and after. Each time the phone's edit
    /// reaches the survivor: an edit saved to a copy while, or after, another device retired it
    /// is folded in, never lost with the copy nor undone.
    ///
    /// Breaking it: folding the copy's version into the survivor without its ancestor in
    /// `NaturalKeyMerge.settleMarked` (`ancestor: nil`) brings "stale" back.
    @Test func anEditOfACopyAtEachStepOfItsRetirementElsewhere() async throws {  // trap: T21.30, T21.19
        var step = 0
        while true {
            let pair = try Pair(stepping: ["alice-laptop"])
            try pair.phone.store.save(SharedList(recordName: "b-groceries", title: "Groceries", labels: ["phone", "stale"]))
            await pair.phone.sync()
            try pair.laptop.store.save(SharedList(recordName: "a-groceries", title: "Groceries", labels: ["laptop"]))
            let engine = pair.laptop.engine
            await pair.interleaving.start(pair.laptop.name) { _ = await engine.sync() }
            var steps = 0
            while steps < step, pair.interleaving.isRunning(pair.laptop.name) {
                await pair.interleaving.resume(pair.laptop.name)
                steps += 1
            }
            let where_ = pair.interleaving.point(of: pair.laptop.name).map { "\($0)" } ?? "after the pass"
            let context = "the phone's edit at step \(step) (\(where_)) of the laptop's pass"
            try Self.editLabels("b-groceries", on: pair.phone, adding: ["edited"], removing: ["stale"])
            await pair.phone.sync()
            let ended = !pair.interleaving.isRunning(pair.laptop.name)
            await pair.finish(pair.laptop)
            await pair.syncAll()
            try pair.expectOneList("a-groceries", labels: ["laptop", "phone", "edited"], context)
            if ended { break }
            step += 1
        }
        #expect(step >= 6, "the laptop's pass made only \(step) stops")
    }

    /// The phone pulls the laptop's new label while its own app adds one and removes another:
    /// the app's write lands after the page was fetched, before it is applied. The page's
    /// transaction reads the app's changes again, so the list is merged, not written over.
    ///
    /// Breaking it: reading the app's changes once per pull, before its requests
    /// (`localChanges.refresh` left out of `PullPhase`), takes the laptop's list as it is:
    /// "new" is lost and "old" comes back.
    @Test func aUnionEditRacingAPull() async throws {
        let pair = try Pair(stepping: ["alice-phone"])
        try pair.phone.store.save(SharedList(recordName: "groceries", title: "Groceries", labels: ["old", "kept"]))
        await pair.interleaving.stopStepping(pair.phone.name)
        await pair.phone.sync()
        await pair.laptop.sync()
        try Self.editLabels("groceries", on: pair.laptop, adding: ["laptop"])
        await pair.laptop.sync()
        pair.interleaving.attach(pair.phone)
        #expect(await pair.run(pair.phone, until: .after(.fetchZoneChanges)))
        try Self.editLabels("groceries", on: pair.phone, adding: ["new"], removing: ["old"])
        await pair.finish(pair.phone)
        await pair.syncAll()
        try pair.expectOneList("groceries", labels: ["kept", "laptop", "new"], "an edit racing a pull")
    }

    /// The laptop's pass merges its "Groceries" with the phone's (in the cloud, with an item
    /// under it) and retires the phone's copy, cut at each commit it makes in turn (the
    /// transaction it dies in rolls back); the app starts again on its store, and its user
    /// removes a label at once, before any pass. Every run ends with one list holding both
    /// devices' labels less the removed one, and the phone's item, on both devices and in the
    /// cloud, and the phone's copy marked merged.
    ///
    /// Breaking it: `RetirementPhase` keeping nothing of its request as sent (`noteSent` left
    /// out) makes the run cut between the request and its results merge the pulled survivor
    /// with no version to start from: "old" comes back.
    @Test func aMergeAndItsRetirementCutAtEachWrite() async throws {
        func scenario() async throws -> Pair {
            let pair = try Pair(stepping: [])
            try pair.phone.store.save(SharedList(recordName: "b-groceries", title: "Groceries", labels: ["phone"]))
            try pair.phone.store.save(ListItem(recordName: "milk", parent: RecordReference(recordName: "b-groceries"), text: "Milk", assignee: .unset))
            await pair.phone.sync()
            try pair.laptop.store.save(SharedList(recordName: "a-groceries", title: "Groceries", labels: ["laptop", "old"]))
            return pair
        }
        let reference = try await scenario()
        let before = reference.laptop.store.writeCommits
        await reference.laptop.sync()
        let writes = reference.laptop.store.writeCommits - before
        try Self.editLabels("a-groceries", on: reference.laptop, removing: ["old"])
        await reference.syncAll()
        try reference.expectOneList("a-groceries", labels: ["laptop", "phone"], "without a cut")
        #expect(writes >= 5, "the pass made only \(writes) writes")

        for cut in 0..<writes {
            let pair = try await scenario()
            pair.laptop.store.crash(afterCommits: cut)
            #expect(await pair.laptop.engine.sync() != .completed, "cut after \(cut) commits: the pass did not notice")
            pair.laptop = try await pair.restart(pair.laptop)
            try Self.editLabels("a-groceries", on: pair.laptop, removing: ["old"])
            await pair.syncAll()
            let context = "cut after \(cut) of \(writes) commits"
            try pair.expectOneList("a-groceries", labels: ["laptop", "phone"], context)
            for device in [pair.phone, pair.laptop] {
                #expect(try device.store.fetchAll(ListItem.self).map { $0.parent?.recordName } == ["a-groceries"], "\(context): \(device.name)")
            }
            #expect(try pair.cloudLists()["b-groceries"]?.mergedInto == "a-groceries", "\(context)")
        }
    }
}

/// What a device keeps of its saves as sent, until a reply or a version says where each stands.
@Suite("Engine: saves kept as sent")
struct SentSavesTests {
    static func kept(in store: SyncStore) throws -> Int {
        try store.sqliteTransaction { try $0.database.query("SELECT count(*) FROM sent_uploads").first?.integer(0) ?? 0 }.map(Int.init) ?? 0
    }

    /// Pass after pass, the network is gone by the time the push goes (`networkUnavailable`:
    /// the request was never sent), so nothing is kept as sent (an upload kept for each try would
    /// pile up for as long as the network stays away). Then the push lands, and its reply
    /// settles what it kept. Breaking it (keeping the uploads of a request that never went)
    /// leaves one row per try.
    @Test func savesNeverSentAreNotKept() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        await phone.sync()
        try phone.store.save(Note(recordName: "n", title: "offline"))
        world.cloud.inject(ScriptedFault(CloudError(.networkUnavailable, "offline"), times: 5, on: .modify))
        for _ in 0..<5 { _ = await phone.engine.sync() }
        #expect(try Self.kept(in: phone.store) == 0)
        await phone.sync()
        #expect(try Self.kept(in: phone.store) == 0)
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["n"] != nil)
    }

    /// A save kept as sent whose landed version this device already pulled (the reply lost, the
    /// version read since, with an edit of the laptop's after it) is no merge's ancestor: the
    /// version known here holds it and what came after. The phone's save of "groceries" is kept
    /// as sent; the laptop then adds "tea", and the phone pulls that; the phone removes "tea"
    /// while the laptop adds "bread"; the phone's push meets the laptop's version,
    /// and its removal stands. Breaking it (the kept save taken whenever the cloud's version
    /// descends from it, though the known one does too): the merge starts from a version without
    /// "tea", and "tea" comes back.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aSaveTheKnownVersionHoldsIsNoAncestor(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save(SharedList(recordName: "groceries", title: "Groceries", labels: ["milk"]))
        await phone.sync()
        let id = RecordID(recordName: "groceries", zoneID: ZoneID(zoneName: SyncConstants.defaultSyncZoneName))
        let landed = try #require(try phone.store.sqliteTransaction { try $0.serverRecord(id) })
        await laptop.sync()
        var list = try #require(try laptop.store.fetch(SharedList.self, recordName: "groceries"))
        list.labels.append("tea")
        try laptop.store.save(list)
        await laptop.sync()
        await phone.sync()
        // The phone's save, as if its reply had been lost: its version came back in the pull.
        try phone.store.sqliteTransaction { try $0.noteSent([landed]) }
        var mine = try #require(try phone.store.fetch(SharedList.self, recordName: "groceries"))
        try #require(mine.labels == ["milk", "tea"])
        mine.labels.removeAll { $0 == "tea" }
        try phone.store.save(mine)
        var theirs = try #require(try laptop.store.fetch(SharedList.self, recordName: "groceries"))
        theirs.labels.append("bread")
        try laptop.store.save(theirs)
        await laptop.sync()
        await phone.sync()
        await laptop.sync()
        for device in [phone, laptop] {
            #expect(try Set(#require(try device.store.fetch(SharedList.self, recordName: "groceries")).labels) == ["milk", "bread"], "\(device.name)")
        }
    }
}

/// An edit of a record another device deleted before the edit reached the cloud: the deletion
/// wins, and the app hears which change went with it, whether the deletion arrives in a pull or
/// answers the push (`unknownItem`).
@Suite("Engine: a change that loses to a deletion is named")
struct ChangeLostToDeletionTests {
    /// The laptop deletes a note the phone is editing. The phone's pass meets the deletion in its
    /// pull, or (the deletion made while the phone's pass was between its pull and its push) as
    /// the answer to its save. Either way the note goes from the phone and
    /// `changeLostToDeletion` names it. Breaking it (no event on that path) loses the edit
    /// without a word.
    @Test(arguments: [false, true])
    func anEditLostToADeletionIsNamed(deletedDuringThePass: Bool) async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save(Note(recordName: "n", title: "first"))
        await phone.sync()
        await laptop.sync()
        var note = try #require(try phone.store.fetch(Note.self, recordName: "n"))
        note.title = "edited"
        try phone.store.save(note)
        let events = phone.recordEvents()
        if deletedDuringThePass {
            let interleaving = Interleaving()
            interleaving.attach(phone)
            let engine = phone.engine
            await interleaving.start(phone.name) { _ = await engine.sync() }
            while interleaving.isRunning(phone.name), interleaving.point(of: phone.name) != .before(.modify) {
                await interleaving.resume(phone.name)
            }
            try laptop.store.delete(Note.self, recordName: "n")
            await laptop.sync()
            await interleaving.stopStepping()
        } else {
            try laptop.store.delete(Note.self, recordName: "n")
            await laptop.sync()
            await phone.sync()
        }
        await phone.sync()
        #expect(try phone.store.fetch(Note.self, recordName: "n") == nil)
        let published = await events.events()
        #expect(published.contains(.changeLostToDeletion(RecordKey("Note", "n"))), "\(published)")
    }
}
