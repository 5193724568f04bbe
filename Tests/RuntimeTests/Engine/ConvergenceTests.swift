import Foundation
import Testing
@testable import SyncRuntime

/// Three devices (Alice's phone and laptop, Bob's phone), one shared list, random saves, edits,
/// deletions, offline periods and syncs, with random faults. When the faults stop, every device
/// and the server must agree, no write may be lost, and nothing deleted may come back.
///
/// Replay a failing seed with `swift test --filter "ConvergenceTests"` and the seed in the
/// failure message (each seed is its own test case).
@Suite("Engine: randomized convergence")
struct ConvergenceTests {
    static let seeds: [UInt64] = Array(1...300)

    /// Faults from every transient or recoverable code of the semantics table.
    static let faultCodes: [CloudErrorCode] = [
        .networkUnavailable, .networkFailure, .serviceUnavailable, .requestRateLimited, .zoneBusy,
        .serverResponseLost, .batchRequestFailed, .limitExceeded, .quotaExceeded, .partialFailure,
    ]

    @Test(arguments: seeds)
    func devicesConverge(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let world = try SyncWorld()
        let alicePhone = try world.device("alice-phone", account: "alice")
        let aliceLaptop = try world.device("alice-laptop", account: "alice")
        let bobPhone = try world.device("bob-phone", account: "bob")
        let devices = [alicePhone, aliceLaptop, bobPhone]

        // The household list, shared before the chaos starts.
        try alicePhone.store.save(SharedList(recordName: "list", title: "Groceries"))
        await alicePhone.sync()
        let share = try await alicePhone.engine.share(try #require(try alicePhone.store.fetch(SharedList.self, recordName: "list")), with: [ShareParticipant(userRecordName: "_bob", permission: .readWrite)])
        try await bobPhone.engine.acceptShare(world.cloud.shareMetadata(for: share, ownerAccount: "alice"))
        await world.syncAll()

        var ledger = Ledger()
        world.cloud.injectRandomFaults(RandomFaults(seed: seed, probability: 0.07, codes: Self.faultCodes, retryAfter: 1))
        for step in 0..<60 {
            let device = devices[Int.random(in: 0..<3, using: &random)]
            let isBob = device === bobPhone
            switch Int.random(in: 0..<15, using: &random) {
            case 0, 1:
                let name = "note-\(device.name)-\(step)"
                try device.store.save(Note(recordName: name, title: "v\(step)"))
                ledger.wrote(name, value: "v\(step)", by: device.name, account: isBob ? "bob" : "alice")
            case 2:
                if var note = try device.store.fetchAll(Note.self).randomElement(using: &random) {
                    note.title = "v\(step)"
                    try device.store.save(note)
                    ledger.wrote(note.recordName, value: "v\(step)", by: device.name, account: isBob ? "bob" : "alice")
                }
            case 3:
                if let note = try device.store.fetchAll(Note.self).randomElement(using: &random) {
                    try device.store.delete(note)
                    ledger.deleted(note.recordName)
                }
            case 4, 5:
                guard try device.store.fetch(SharedList.self, recordName: "list") != nil else { break }
                let name = "item-\(device.name)-\(step)"
                try device.store.save(ListItem(recordName: name, ownerName: isBob ? "_alice" : SyncConstants.currentUserOwnerName, parent: RecordReference(recordName: "list"), text: "v\(step)", assignee: .unset))
                ledger.wrote(name, value: "v\(step)", by: device.name, account: "household")
            case 6:
                if var item = try device.store.fetchAll(ListItem.self).randomElement(using: &random) {
                    item.text = "v\(step)"
                    try device.store.save(item)
                    ledger.wrote(item.recordName, value: "v\(step)", by: device.name, account: "household")
                }
            case 7:
                if let item = try device.store.fetchAll(ListItem.self).randomElement(using: &random) {
                    try device.store.delete(item)
                    ledger.deleted(item.recordName)
                }
            case 8:
                world.cloud.setNetworkAvailable(Bool.random(using: &random), for: device.name)
            default:
                _ = await device.engine.sync()
            }
            world.clock.advance(by: 1)
        }

        // Calm: no faults, everyone online, a few rounds of syncing.
        world.cloud.injectRandomFaults(nil)
        for device in devices { world.cloud.setNetworkAvailable(true, for: device.name) }
        // An injected limitExceeded on a one-record request reads as a record that can never fit,
        // and sets the change aside: the app, told so, retries it.
        for device in devices {
            for failed in try await device.engine.failedChanges() {
                #expect(failed.error.message == "injected fault", "seed \(seed): \(failed)")
                if failed.recordType == Note.recordType {
                    try await device.engine.retryFailedChange(for: Note.self, recordName: failed.recordName)
                } else {
                    try await device.engine.retryFailedChange(for: ListItem.self, recordName: failed.recordName)
                }
            }
        }
        for _ in 0..<3 {
            for device in devices { _ = await device.engine.sync() }
        }
        for device in devices {
            #expect(await device.engine.sync() == .completed, "seed \(seed): \(device.name) does not settle")
            #expect(try !device.store.hasUnpushedChanges(), "seed \(seed): \(device.name) still has changes to push")
        }

        let snapshot = try world.cloud.snapshot()
        let aliceZone = snapshot.zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records ?? [:]
        let bobZone = snapshot.zone(SyncConstants.defaultSyncZoneName, ofAccount: "bob")?.records ?? [:]
        func notes(_ records: [String: SyncRecord]) -> [String: String] {
            records.values.filter { $0.recordType == "Note" }.reduce(into: [:]) { $0[$1.id.recordName] = $1.fields["title"].map { "\($0)" } }
        }
        func items(_ records: [String: SyncRecord]) -> [String: String] {
            records.values.filter { $0.recordType == "ListItem" }.reduce(into: [:]) { $0[$1.id.recordName] = $1.fields["text"].map { "\($0)" } }
        }
        func local<Model: SyncModel>(_ device: SyncWorld.Device, _ type: Model.Type, _ value: (Model) -> String) throws -> [String: String] {
            try device.store.fetchAll(type).reduce(into: [:]) { $0[$1.recordName] = value($1) }
        }
        // Everyone agrees with the server.
        for device in [alicePhone, aliceLaptop] {
            #expect(try local(device, Note.self) { "\"\($0.title)\"" } == notes(aliceZone), "seed \(seed): \(device.name)'s notes differ from the server")
        }
        #expect(try local(bobPhone, Note.self) { "\"\($0.title)\"" } == notes(bobZone), "seed \(seed): bob's notes differ from the server")
        for device in devices {
            #expect(try local(device, ListItem.self) { "\"\($0.text)\"" } == items(aliceZone), "seed \(seed): \(device.name)'s items differ from the server")
        }
        // Nothing deleted came back; nothing written and never deleted was lost; a record only one
        // device wrote holds its last value.
        let all = notes(aliceZone).merging(notes(bobZone)) { first, _ in first }.merging(items(aliceZone)) { first, _ in first }
        for name in ledger.deletedNames {
            #expect(all[name] == nil, "seed \(seed): \(name) was deleted but came back")
        }
        for (name, entry) in ledger.entries where !ledger.deletedNames.contains(name) {
            #expect(all[name] != nil, "seed \(seed): \(name) was written and never deleted, but is gone")
            if entry.writers.count == 1 {
                #expect(all[name] == "\"\(entry.lastValue)\"", "seed \(seed): \(name) lost its last write")
            }
        }
        // Bob's private notes never reached Alice's zone, nor hers his.
        #expect(notes(aliceZone).keys.allSatisfy { !$0.contains("bob-phone") }, "seed \(seed)")
        #expect(notes(bobZone).keys.allSatisfy { $0.contains("bob-phone") }, "seed \(seed)")
    }

    struct Ledger {
        struct Entry {
            var writers: Set<String> = []
            var lastValue = ""
        }

        var entries: [String: Entry] = [:]
        var deletedNames: Set<String> = []

        mutating func wrote(_ name: String, value: String, by device: String, account: String) {
            entries[name, default: Entry()].writers.insert(device)
            entries[name]!.lastValue = value
        }

        mutating func deleted(_ name: String) {
            deletedNames.insert(name)
        }
    }
}
