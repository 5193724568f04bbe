import Foundation
import GeneratedCoverage
import Testing
@testable import SyncEngineKit
import SyncLocalCloud
import SyncRuntime
import SyncCore

/// Three of Alice's devices make households of a few names (and some without a name) at random,
/// offline and online, under random faults: chores under them, chores assigned to them, tags
/// added and removed on whichever copy a device holds, mottos (a custom merge) changed. When the
/// faults stop and every device has synced, every device and the cloud agree, each name is one
/// household, no chore or reference points at a copy merged away, an unnamed household is never
/// merged, and every tag a device added and no device removed is on its household (tags merge
/// as a union: an edit the policy keeps is never lost).
///
/// `NATURAL_KEY_SEED=7 swift test --filter NaturalKeyConvergenceTests` runs one seed alone (with
/// `NATURAL_KEY_TRACE=1`, step by step); `NATURAL_KEY_COUNT=1000` runs seeds 1 to 1000.
@Suite("Engine: natural keys, randomized convergence")
struct NaturalKeyConvergenceTests {
    static let seeds: [UInt64] = {
        let environment = ProcessInfo.processInfo.environment
        if let seed = environment["NATURAL_KEY_SEED"].flatMap(UInt64.init) { return [seed] }
        return Array(1...(environment["NATURAL_KEY_COUNT"].flatMap(UInt64.init) ?? 60))
    }()

    static let names = ["Home", "Cabin", "Flat"]
    /// `NATURAL_KEY_TRACE=1` prints each step of a run.
    static let tracing = ProcessInfo.processInfo.environment["NATURAL_KEY_TRACE"] == "1"
    static let faultCodes: [CloudErrorCode] = [.networkUnavailable, .networkFailure, .serviceUnavailable, .requestRateLimited, .zoneBusy, .serverResponseLost]

    /// What the devices acknowledged, by household group: its name, or for one without a name
    /// its record name (such a household is never one with another).
    struct Ledger {
        var addedTags: [String: Set<String>] = [:]
        var removedTags: [String: Set<String>] = [:]
        /// Chores made, with the group of the household they were made under; nil once deleted.
        var chores: [String: String?] = [:]
        var unnamed: Set<String> = []
    }

    static func group(_ household: Household) -> String {
        household.name.isEmpty ? household.recordName : household.name
    }

    @Test(arguments: seeds)
    func duplicatesConverge(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let world = try SyncWorld()
        let devices = try ["alice-laptop", "alice-phone", "alice-tablet"].map {
            try world.device($0, account: "alice", models: EngineNaturalKeyTests.models)
        }
        world.cloud.injectRandomFaults(RandomFaults(seed: seed, probability: 0.05, codes: Self.faultCodes, retryAfter: 1))
        var ledger = Ledger()
        var counter = 0
        for _ in 0..<60 {
            counter += 1
            let device = devices[Int.random(in: 0..<devices.count, using: &random)]
            let households = try device.store.fetchAll(Household.self)
            let roll = Int.random(in: 0..<100, using: &random)
            if Self.tracing {
                print("step \(counter) \(device.name) roll \(roll): \(households.map { "\($0.recordName)=\($0.name)\($0.tags)" })")
            }
            switch roll {
            case 0..<22:
                let name = Int.random(in: 0..<10, using: &random) == 0 ? "" : Self.names.randomElement(using: &random)!
                let household = Household(recordName: "h\(seed)-\(counter)", name: name, tags: ["t\(counter)"], visits: Int64(counter))
                do {
                    try device.store.save(household)
                    ledger.addedTags[Self.group(household), default: []].insert("t\(counter)")
                    if name.isEmpty { ledger.unnamed.insert(household.recordName) }
                } catch is DuplicateNaturalKey {
                    // The store refused a second copy on this device: nothing was acknowledged.
                }
            case 22..<44:
                guard var household = households.randomElement(using: &random) else { continue }
                household.tags.append("t\(counter)")
                try device.store.save(household)
                ledger.addedTags[Self.group(household), default: []].insert("t\(counter)")
            case 44..<52:
                guard var household = households.randomElement(using: &random), let tag = household.tags.randomElement(using: &random) else { continue }
                household.tags.removeAll { $0 == tag }
                try device.store.save(household)
                ledger.removedTags[Self.group(household), default: []].insert(tag)
            case 52..<64:
                guard let household = households.randomElement(using: &random) else { continue }
                try device.store.save(Chore(recordName: "c\(seed)-\(counter)", parent: RecordReference(recordName: household.recordName), title: "chore \(counter)"))
                ledger.chores["c\(seed)-\(counter)"] = Self.group(household)
            case 64..<72:
                guard var chore = try device.store.fetchAll(Chore.self).randomElement(using: &random), let household = households.randomElement(using: &random) else { continue }
                chore.assignee = RecordReference(recordName: household.recordName)
                try device.store.save(chore)
            case 72..<76:
                guard let chore = try device.store.fetchAll(Chore.self).randomElement(using: &random) else { continue }
                try device.store.delete(chore)
                ledger.chores[chore.recordName] = .some(nil)
            case 76..<80:
                guard var household = households.randomElement(using: &random) else { continue }
                household.motto = "m\(counter)"
                try device.store.save(household)
            case 80..<95:
                let result = await device.engine.sync()
                if Self.tracing { print("  sync: \(result)") }
            default:
                world.cloud.setNetworkAvailable(Bool.random(using: &random), for: device.name)
            }
            world.clock.advance(by: 1)
        }

        // Calm: no faults, everyone online, a few rounds of syncing.
        world.cloud.injectRandomFaults(nil)
        for device in devices { world.cloud.setNetworkAvailable(true, for: device.name) }
        for _ in 0..<3 {
            for device in devices { _ = await device.engine.sync() }
        }
        try Self.expectConverged(devices, world, ledger, seed: seed)
    }

    static func expectConverged(_ devices: [SyncWorld.Device], _ world: SyncWorld, _ ledger: Ledger, seed: UInt64) throws {
        let context = "seed \(seed)"
        for device in devices {
            #expect(try !device.store.hasUnpushedChanges(), "\(context): \(device.name) still has changes to push")
        }
        let reference = try devices[0].store.fetchAll(Household.self, sortedBy: { $0.recordName < $1.recordName })
        let referenceChores = try devices[0].store.fetchAll(Chore.self, sortedBy: { $0.recordName < $1.recordName })
        for device in devices.dropFirst() {
            #expect(try device.store.fetchAll(Household.self, sortedBy: { $0.recordName < $1.recordName }) == reference, "\(context): \(device.name) disagrees on households")
            #expect(try device.store.fetchAll(Chore.self, sortedBy: { $0.recordName < $1.recordName }) == referenceChores, "\(context): \(device.name) disagrees on chores")
        }
        let cloud = Array(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records.values ?? [:].values)
        // The cloud keeps each merged copy, marked with its survivor (never shown by a device).
        let households = cloud.filter { $0.recordType == "Household" }
        #expect(households.filter { $0.mergedInto == nil }.map(\.id.recordName).sorted() == reference.map(\.recordName), "\(context): the cloud disagrees")
        // Every marked copy's name is a household's (the survivor its mark names may have
        // merged into another since, or never reached the cloud).
        for copy in households where copy.mergedInto != nil {
            guard case .string(let name)? = copy.fields["name"] else { continue }
            #expect(reference.contains { $0.name == name }, "\(context): \(copy.id.recordName) is marked merged, and no household is named '\(name)'")
        }
        #expect(cloud.filter { $0.recordType == "Chore" }.map(\.id.recordName).sorted() == referenceChores.map(\.recordName), "\(context): the cloud disagrees on chores")

        let byGroup = Dictionary(grouping: reference, by: group)
        for (name, copies) in byGroup where !name.isEmpty {
            #expect(copies.count == 1, "\(context): \(copies.count) households of '\(name)'")
        }
        #expect(ledger.unnamed.isSubset(of: Set(reference.map(\.recordName))), "\(context): an unnamed household was merged away")
        for (group, added) in ledger.addedTags {
            guard let household = byGroup[group]?.first else {
                Issue.record("\(context): the household of '\(group)' is gone")
                continue
            }
            let kept = added.subtracting(ledger.removedTags[group] ?? [])
            #expect(kept.isSubset(of: Set(household.tags)), "\(context): '\(group)' lost tags \(kept.subtracting(household.tags).sorted())")
        }
        let names = Set(reference.map(\.recordName))
        let chores = Dictionary(uniqueKeysWithValues: referenceChores.map { ($0.recordName, $0) })
        for (name, madeUnder) in ledger.chores {
            guard let madeUnder else {
                #expect(chores[name] == nil, "\(context): deleted chore \(name) is back")
                continue
            }
            // A chore made here may since have been deleted on another device that held it.
            guard let chore = chores[name] else { continue }
            #expect(chore.parent.flatMap { parent in reference.first { $0.recordName == parent.recordName } }.map(Self.group) == madeUnder,
                    "\(context): chore \(name) is under \(chore.parent?.recordName ?? "nothing"), not the household of '\(madeUnder)'")
        }
        for chore in referenceChores {
            if let assignee = chore.assignee { #expect(names.contains(assignee.recordName), "\(context): \(chore.recordName) is assigned to a household merged away") }
        }
        for household in reference {
            if let partner = household.partner { #expect(names.contains(partner.recordName), "\(context): \(household.recordName)'s partner is gone") }
            #expect(household.members.allSatisfy { names.contains($0.recordName) }, "\(context): \(household.recordName) lists a household merged away")
        }
    }
}
