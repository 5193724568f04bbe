import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncLocalCloud
import SyncRuntime
import SyncCore

/// `notes-demo soak-keys` in one process, with the moments chosen by a seed: three of Alice's
/// devices make lists whose titles collide (a list's title is its natural key), label them
/// (`labels` merges as a union), unlabel them, add and delete items under them and now and then
/// delete one, while their passes run at once, one request at a time in a random order
/// (``Interleaving``), app writes landing between any two requests of a pass, and devices killed
/// at any request or at any commit and started again on their store. When the storm ends and every device has
/// synced, every device and the cloud agree; each title is one list at most; every label
/// acknowledged and not removed is on its title's list, and none removed came back; every item
/// acknowledged and not deleted is under its title's list, none deleted came back.
///
/// `INTERLEAVING_SEED=7 swift test --filter NaturalKeyInterleavingTests` runs one seed alone
/// (with `INTERLEAVING_TRACE=1`, step by step); `INTERLEAVING_COUNT=1000` runs seeds 1 to 1000.
@Suite("Engine: natural keys, passes interleaved request by request")
struct NaturalKeyInterleavingTests {
    static let seeds: [UInt64] = {
        let environment = ProcessInfo.processInfo.environment
        if let seed = environment["INTERLEAVING_SEED"].flatMap(UInt64.init) { return [seed] }
        return Array(1...(environment["INTERLEAVING_COUNT"].flatMap(UInt64.init) ?? 40))
    }()

    static let tracing = ProcessInfo.processInfo.environment["INTERLEAVING_TRACE"] == "1"
    static let deviceNames = ["alice-laptop", "alice-phone", "alice-tablet"]
    static let steps = 600

    /// What the devices acknowledged. In one process a write returns or never happened: every
    /// entry is sure.
    struct Ledger {
        /// Each label's list title, and whether a device removed it.
        var labels: [String: (title: String, removed: Bool)] = [:]
        /// Each item's list title, and whether a device deleted it.
        var items: [String: (title: String, deleted: Bool)] = [:]
        var titlesMade: Set<String> = []
        /// Titles a device deleted a list of: what they held is not promised.
        var titlesDeleted: Set<String> = []
    }

    /// A device of the run: its store's file, and the world's device over it now (a new one
    /// after each kill).
    final class Runner {
        let name: String
        let url: URL
        var device: SyncWorld.Device
        var runs = 0

        init(name: String, url: URL, device: SyncWorld.Device) {
            self.name = name
            self.url = url
            self.device = device
        }
    }

    /// One seed at a time: each keeps three store files open (more for each kill), and thousands
    /// of seeds at once would run out of file descriptors.
    @Test(.serialized, arguments: seeds)
    func copiesConvergeWhateverTheInterleaving(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let world = try SyncWorld()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("syncgen-interleaving-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let interleaving = Interleaving()
        func open(_ name: String, _ url: URL, stepping: Bool = true) throws -> SyncWorld.Device {
            let device = try world.device(name, account: "alice", store: SyncStore(url: url, clock: world.clock))
            if stepping { interleaving.attach(device) }
            if Self.tracing { device.engine.context.events.observe { event in print("    \(name): \(event)") } }
            return device
        }
        let runners = try Self.deviceNames.map { name in
            let url = folder.appendingPathComponent("\(name).sqlite")
            return Runner(name: name, url: url, device: try open(name, url))
        }
        var ledger = Ledger()
        func trace(_ line: @autoclosure () -> String) {
            if Self.tracing { print(line()) }
        }

        for step in 0..<Self.steps {
            world.clock.advance(by: 1)
            let runner = runners[Int.random(in: 0..<runners.count, using: &random)]
            let name = runner.name
            if runner.device.store.hasCrashed {
                // Killed at a commit: what came before it is in the file, nothing after.
                trace("\(step) \(name): died at a commit\(interleaving.point(of: name).map { ", stopped \($0)" } ?? "")")
                if interleaving.isRunning(name) { interleaving.kill(name) }
                runner.runs += 1
                runner.device = try open(name, runner.url)
                continue
            }
            let roll = Int.random(in: 0..<100, using: &random)
            if interleaving.isRunning(name) {
                switch roll {
                case 0..<60:
                    trace("\(step) \(name): on from \(interleaving.point(of: name).map(String.init(describing:)) ?? "?")")
                    await interleaving.resume(name)
                    continue
                case 60..<63:
                    trace("\(step) \(name): killed \(interleaving.point(of: name).map(String.init(describing:)) ?? "?")")
                    interleaving.kill(name)
                    runner.runs += 1
                    runner.device = try open(name, runner.url)
                    continue
                case 63..<66:
                    // To die at one of its next commits, between two requests or after one.
                    let commits = Int.random(in: 0..<4, using: &random)
                    trace("\(step) \(name): dies after \(commits) more commits, on from \(interleaving.point(of: name).map(String.init(describing:)) ?? "?")")
                    runner.device.store.crash(afterCommits: commits)
                    await interleaving.resume(name)
                    continue
                default:
                    break
                }
            } else if roll < 35 {
                trace("\(step) \(name): pass starts")
                let engine = runner.device.engine
                await interleaving.start(name) { _ = await engine.sync() }
                continue
            }
            do {
                try write(on: runner, step: step, random: &random, ledger: &ledger, trace: trace)
            } catch where runner.device.store.hasCrashed {
                // The device died in this write: it was never acknowledged.
                trace("\(step) \(name): died in the write")
            }
        }

        await interleaving.stopStepping()
        // Every app started again (a store left to die at a commit dies no more).
        for runner in runners { runner.device = try open(runner.name, runner.url, stepping: false) }
        for _ in 0..<3 {
            for runner in runners {
                let result = await runner.device.engine.sync()
                trace("calm \(runner.name): \(result)")
            }
        }
        try Self.expectConverged(runners.map(\.device), world, ledger, seed: seed)
        await interleaving.releaseKilled()
    }

    /// One app write on the runner's device, as `soak-keys` makes them: mostly this epoch's
    /// titles, now and then an older one's.
    private func write(on runner: Runner, step: Int, random: inout SeededRandom, ledger: inout Ledger, trace: (@autoclosure () -> String) -> Void) throws {
        let store = runner.device.store
        let epoch = step / 60 - (Int.random(in: 0..<4, using: &random) == 0 ? Int.random(in: 1...3, using: &random) : 0)
        let title = "\(["Groceries", "Hardware"].randomElement(using: &random)!)\(max(epoch, 0))"
        let list = try store.fetchAll(SharedList.self).first { $0.title == title }
        let tag = "\(runner.name.split(separator: "-").last!)\(runner.runs)s\(step)"
        switch Int.random(in: 0..<12, using: &random) {
        case 0, 1:
            guard list == nil else { return }
            let made = SharedList(recordName: "\(runner.name)-\(runner.runs)-\(step)", title: title)
            trace("\(step) \(runner.name): create \(title) \(made.recordName)")
            try store.save(made)
            ledger.titlesMade.insert(title)
        case 2, 3, 4:
            guard var list else { return }
            list.labels.append(tag)
            trace("\(step) \(runner.name): label \(list.recordName) (\(title)) +\(tag)")
            try store.save(list)
            ledger.labels[tag] = (title, false)
        case 5:
            guard var list, let label = list.labels.randomElement(using: &random) else { return }
            list.labels.removeAll { $0 == label }
            trace("\(step) \(runner.name): unlabel \(list.recordName) (\(title)) -\(label)")
            try store.save(list)
            ledger.labels[label]?.removed = true
        case 6:
            guard let list else { return }
            let item = ListItem(recordName: "item-\(tag)", parent: RecordReference(recordName: list.recordName), text: title, assignee: .unset)
            trace("\(step) \(runner.name): item \(item.recordName) under \(list.recordName) (\(title))")
            try store.save(item)
            ledger.items[item.recordName] = (title, false)
        case 7:
            guard let list, let item = try store.fetchAll(ListItem.self, where: { $0.parent?.recordName == list.recordName }).randomElement(using: &random) else { return }
            trace("\(step) \(runner.name): unitem \(item.recordName) under \(list.recordName) (\(title))")
            try store.delete(item)
            ledger.items[item.recordName]?.deleted = true
        case 8 where Int.random(in: 0..<8, using: &random) == 0:
            guard let list else { return }
            trace("\(step) \(runner.name): drop \(list.recordName) (\(title))")
            try store.delete(list)
            ledger.titlesDeleted.insert(title)
        default:
            return
        }
    }

    static func expectConverged(_ devices: [SyncWorld.Device], _ world: SyncWorld, _ ledger: Ledger, seed: UInt64) throws {
        let context = "seed \(seed)"
        struct Holding: Equatable {
            var lists: [String: SharedList] = [:]
            var items: [String: String] = [:]
        }
        func holding(of device: SyncWorld.Device) throws -> Holding {
            var holding = Holding()
            for list in try device.store.fetchAll(SharedList.self) { holding.lists[list.recordName] = list }
            for item in try device.store.fetchAll(ListItem.self) { holding.items[item.recordName] = item.parent?.recordName ?? "" }
            return holding
        }
        for device in devices {
            #expect(try !device.store.hasUnpushedChanges(), "\(context): \(device.name) still has changes to push")
        }
        let cloud = try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records.values.map { $0 } ?? []
        var inCloud = Holding()
        for record in cloud where record.recordType == ListItem.recordType {
            inCloud.items[record.id.recordName] = record.parentRecordName ?? ""
        }
        let reference = try holding(of: devices[0])
        for device in devices.dropFirst() {
            #expect(try holding(of: device) == reference, "\(context): \(device.name) and \(devices[0].name) disagree")
        }
        #expect(Set(cloud.filter { $0.recordType == SharedList.recordType && $0.mergedInto == nil }.map(\.id.recordName)) == Set(reference.lists.keys), "\(context): the cloud's lists are not the devices'")
        #expect(inCloud.items == reference.items, "\(context): the cloud's items are not the devices'")

        var byTitle: [String: SharedList] = [:]
        for list in reference.lists.values {
            if let other = byTitle[list.title] { Issue.record("\(context): \"\(list.title)\" is two lists: \(other.recordName) and \(list.recordName)") }
            byTitle[list.title] = list
        }
        for (item, parent) in reference.items where reference.lists[parent] == nil {
            Issue.record("\(context): item \(item) is under \(parent), which is no list")
        }
        for title in ledger.titlesMade.subtracting(ledger.titlesDeleted) where byTitle[title] == nil {
            Issue.record("\(context): \"\(title)\" was made, and no list has that title")
        }
        for (label, history) in ledger.labels.sorted(by: { $0.key < $1.key }) where !ledger.titlesDeleted.contains(history.title) {
            let held = byTitle[history.title]?.labels.contains(label) ?? false
            if !history.removed && !held { Issue.record("\(context): label \(label), added to \"\(history.title)\", is on no list") }
            if history.removed && held { Issue.record("\(context): label \(label), removed from \"\(history.title)\", came back") }
        }
        for (item, history) in ledger.items.sorted(by: { $0.key < $1.key }) where !ledger.titlesDeleted.contains(history.title) {
            if history.deleted {
                #expect(reference.items[item] == nil, "\(context): item \(item), deleted from \"\(history.title)\", came back")
                continue
            }
            guard let parent = reference.items[item] else {
                Issue.record("\(context): item \(item), added to \"\(history.title)\", is gone")
                continue
            }
            #expect(parent == byTitle[history.title]?.recordName, "\(context): item \(item) is under \(parent), not under \"\(history.title)\"'s list")
        }
    }
}
