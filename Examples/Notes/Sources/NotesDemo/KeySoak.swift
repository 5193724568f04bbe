import Foundation
import SyncRuntime
import SyncLocalCloud

/// `notes-demo soak-keys`: three of Alice's devices, real processes syncing over one LocalCloud
/// file at the same time, making lists whose titles collide (a list's title is its natural key),
/// adding labels to whichever copy of a list they hold and removing some (`labels` merges as a
/// union), adding items under them and deleting some, and now and then deleting a list; with
/// `--kills N`, killed with SIGKILL at random moments.
///
/// At the end every device and the cloud agree: one list per title at most, every item under a
/// list that is there. A title no device deleted a list of has its list; it holds every label
/// some device acknowledged adding and none it acknowledged removing (a write announced and cut
/// off by a kill may have landed or not), and every item acknowledged and not deleted. The window
/// this guards: a device merging copies retires one while another device saves a new version of
/// it, makes an item under it, or deletes it. And nothing vanishes unnamed, kills included: an
/// item a device acknowledged that went with a list another device deleted, before it ever
/// reached the cloud, is named by a notice kept on the device that made it (`lostChanges()`).
struct KeySoak {
    static let help = """
        USAGE: notes-demo soak-keys [--kills N] [--writes N] [--seed S] [--keep DIR]

          --kills N    how many times a worker is killed (default 10; 0: never)
          --writes N   how many acknowledged writes at least before the end (default 300)
          --seed S     the random choices of the driver and its workers (default: the time)
          --keep DIR   run in DIR and keep it (default: a temporary folder, removed after)
        """

    static let devices = ["alice-phone", "alice-laptop", "alice-tablet"]
    static let account = "alice"
    /// Few titles, so the devices' lists collide often; new ones every quarter of a second
    /// (`title(at:)`), the same on every device, so copies keep being made and merged.
    static let titles = ["Groceries", "Hardware"]

    static func title(_ base: String, at date: Date) -> String {
        "\(base)\(Int(date.timeIntervalSince1970 * 4) % 100_000)"
    }

    let kills: Int
    let writes: Int
    let seed: UInt64
    let folder: URL
    let keep: Bool

    init(arguments: [String]) throws {
        var kills = 10
        var writes = 300
        var seed = UInt64(Date().timeIntervalSince1970 * 1000)
        var folder: URL?
        var rest = arguments[...]
        while let option = rest.popFirst() {
            if option == "--help" { throw UsageError(message: "\n" + Self.help) }
            guard let value = rest.popFirst() else { throw UsageError(message: "\(option) needs a value\n\n" + Self.help) }
            switch option {
            case "--kills": kills = Int(value) ?? -1
            case "--writes": writes = Int(value) ?? -1
            case "--seed": seed = UInt64(value) ?? 0
            case "--keep": folder = URL(fileURLWithPath: value)
            default: throw UsageError(message: "unknown option \(option)\n\n" + Self.help)
            }
        }
        guard kills >= 0, writes >= 0 else { throw UsageError(message: "--kills and --writes need a number\n\n" + Self.help) }
        (self.kills, self.writes, self.seed) = (kills, writes, seed)
        self.keep = folder != nil
        self.folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("notes-key-soak-\(UUID().uuidString)")
    }

    /// What the devices promised. A write is announced (`WILL`) before it is made and
    /// acknowledged (`ACK`) once it returned; one whose worker was killed in between may or may
    /// not have committed. Each worker's lines are read by a thread of their own, so the order in
    /// which two workers' lines arrive here is not the order they wrote in: a label's removal (or
    /// an item's deletion) on one device may be read before its addition on another, and is
    /// kept all the same (an addition never undoes a removal noted before it).
    final class Ledger: @unchecked Sendable {
        enum Certainty { case sure, unsure }
        private let lock = NSLock()
        private var announced: [String: [String]] = [:]
        /// Each label's title, and whether its addition and its removal were acknowledged.
        private(set) var labels: [String: (title: String, added: Certainty?, removed: Certainty?)] = [:]
        /// Each item's title, whether its addition and its deletion were acknowledged.
        private(set) var items: [String: (title: String, certainty: Certainty?, deleted: Certainty?)] = [:]
        private(set) var titlesMade: [String: Certainty] = [:]
        /// Titles a device deleted a list of (or may have, killed): what they hold is not promised.
        private(set) var titlesDeleted: Set<String> = []
        /// The titles each device deleted a list of (or may have): the items it made under them
        /// went by its own hand.
        private(set) var titlesDeletedBy: [String: Set<String>] = [:]
        /// Lists made under a title another device had made a list under already.
        private(set) var collisions = 0
        private(set) var acknowledged = 0
        private var sinceKill = 0

        func record(_ line: String, worker: String) {
            let parts = line.split(separator: " ").map(String.init)
            guard parts.count == 4, parts[0] == "WILL" || parts[0] == "ACK" else { return }
            lock.lock()
            defer { lock.unlock() }
            guard parts[0] == "ACK" else {
                announced[worker] = Array(parts.dropFirst())
                return
            }
            announced[worker] = nil
            apply(Array(parts.dropFirst()), .sure, by: worker)
            acknowledged += 1
            sinceKill += 1
        }

        /// A worker was killed: the write it announced may have committed.
        func killed(_ worker: String) {
            lock.lock()
            defer { lock.unlock() }
            sinceKill = 0
            if let write = announced.removeValue(forKey: worker) { apply(write, .unsure, by: worker) }
        }

        private func apply(_ write: [String], _ certainty: Certainty, by worker: String) {
            let (kind, title, name) = (write[0], write[1], write[2])
            switch kind {
            case "create":
                if titlesMade[title] != nil { collisions += 1 }
                titlesMade[title] = titlesMade[title] == .sure ? .sure : certainty
            case "label": labels[name, default: (title, nil, nil)].added = certainty
            case "unlabel": labels[name, default: (title, nil, nil)].removed = certainty
            case "item": items[name, default: (title, nil, nil)].certainty = certainty
            case "unitem": items[name, default: (title, nil, nil)].deleted = certainty
            case "drop":
                titlesDeleted.insert(title)
                titlesDeletedBy[worker, default: []].insert(title)
            default: break
            }
        }

        var pending: Int {
            lock.lock()
            defer { lock.unlock() }
            return sinceKill
        }

        var total: Int {
            lock.lock()
            defer { lock.unlock() }
            return acknowledged
        }
    }

    /// What a device (or the cloud) holds: each list by record name (title, labels), each item's
    /// parent.
    struct Holding: Equatable {
        var lists: [String: (title: String, labels: Set<String>)] = [:]
        var items: [String: String] = [:]
        /// The records the device's kept notices of lost changes name (not part of equality:
        /// each device keeps its own).
        var named: Set<String> = []

        static func == (lhs: Holding, rhs: Holding) -> Bool {
            lhs.items == rhs.items && lhs.lists.count == rhs.lists.count
                && lhs.lists.allSatisfy { name, list in rhs.lists[name].map { $0.title == list.title && $0.labels == list.labels } ?? false }
        }
    }

    func run() async throws -> Int32 {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(at: folder) } }
        print("notes-soak-keys: \(kills) kills, at least \(writes) writes, seed \(seed), in \(folder.path)")
        var random = SeededRandom(seed: seed)
        let ledger = Ledger()
        var runs = Dictionary(uniqueKeysWithValues: Self.devices.map { ($0, 0) })
        // A run kept (`--keep`) keeps each device's story too: its writes and what each pass
        // left of its lists (`SOAK_TRACE`), with the engine's log (`SYNCGEN_LOG`, `notice` by
        // default), in logs/<device>.log.
        let logs = keep ? folder.appendingPathComponent("logs") : nil
        if let logs { try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true) }
        if keep {
            setenv("SOAK_TRACE", "1", 1)
            setenv("SYNCGEN_LOG", ProcessInfo.processInfo.environment["SYNCGEN_LOG"] ?? "notice", 1)
        }
        func start(_ name: String) throws -> Soak.Worker {
            try Soak.Worker(
                name: name, account: Self.account,
                arguments: ["soak-keys-worker", "--store", folder.path, "--device", name, "--run", String(runs[name]!), "--seed", String(seed)],
                log: logs?.appendingPathComponent("\(name).log"),
                line: { ledger.record($0, worker: name) })
        }
        var workers = try Self.devices.map(start)
        var killed = 0
        while killed < kills || ledger.total < writes {
            if killed < kills {
                // Kill after a random number of acknowledged writes: a random moment of some
                // worker's loop, in the middle of a save, a merge, a retirement or a push.
                let after = Int.random(in: 1...15, using: &random)
                while ledger.pending < after { usleep(2_000) }
                let index = Int.random(in: 0..<workers.count, using: &random)
                workers[index].kill()
                ledger.killed(workers[index].name)
                runs[workers[index].name]! += 1
                workers[index] = try start(workers[index].name)
                killed += 1
            } else {
                usleep(20_000)
            }
        }
        for worker in workers {
            worker.kill()
            ledger.killed(worker.name)
        }

        var holdings: [String: Holding] = [:]
        for _ in 0..<3 {
            for device in Self.devices { holdings[device] = try Self.settle(device, folder: folder) }
        }
        let problems = try check(ledger, holdings: holdings)
        for problem in problems.prefix(20) { print("   ! \(problem)") }
        let summary = "\(kills) kills, \(ledger.total) writes acknowledged, \(ledger.labels.count) labels, \(ledger.items.count) items (\(ledger.items.values.filter { $0.deleted != nil }.count) deleted), \(ledger.titlesDeleted.count) titles with a list deleted, \(holdings.values.map(\.lists.count).max() ?? 0) lists (titles colliding \(ledger.collisions) times) on \(Self.devices.count) devices and in the cloud, \(holdings.values.map(\.named.count).reduce(0, +)) lost changes named, \(problems.count) problems"
        print(problems.isEmpty ? "notes-soak-keys: ok: \(summary)" : "notes-soak-keys: FAILED: \(summary) (seed \(seed))")
        return problems.isEmpty ? 0 : 1
    }

    /// A device's passes after the storm, in a process of its own, and what it then holds.
    static func settle(_ name: String, folder: URL) throws -> Holding {
        var holding = Holding()
        for line in try Soak.output(of: ["soak-keys-worker", "--store", folder.path, "--device", name, "--settle"], device: name) {
            let parts = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            if parts.first == "LIST", parts.count == 4 {
                holding.lists[parts[1]] = (parts[2], Set(parts[3].split(separator: ",").map(String.init)))
            } else if parts.first == "ITEM", parts.count == 3 {
                holding.items[parts[1]] = parts[2]
            } else if parts.first == "LOST", parts.count == 2 {
                holding.named.insert(parts[1])
            }
        }
        return holding
    }

    func check(_ ledger: Ledger, holdings: [String: Holding]) throws -> [String] {
        let cloud = try LocalCloud.file(at: folder.appendingPathComponent("cloud.sqlite"), configuration: LocalCloud.Configuration(downloadsFolder: folder.appendingPathComponent("downloads")))
        var inCloud = Holding()
        let zone = try cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: Self.account)
        for record in (zone?.records ?? [:]).values {
            // A copy a merge retired stays in the cloud, marked with its survivor: no device shows it.
            if record.recordType == SharedList.recordType, record.mergedInto == nil, case .string(let title) = record.fields["title"] {
                let labels: [SyncFieldValue] = if case .list(let items) = record.fields["labels"] { items } else { [] }
                inCloud.lists[record.id.recordName] = (title, Set(labels.compactMap { if case .string(let label) = $0 { label } else { nil } }))
            } else if record.recordType == ListItem.recordType {
                inCloud.items[record.id.recordName] = record.parentRecordName ?? ""
            }
        }
        var problems: [String] = []
        for device in Self.devices where holdings[device] != inCloud {
            problems.append("\(device) holds \(holdings[device]?.lists.count ?? 0) lists and \(holdings[device]?.items.count ?? 0) items, the cloud \(inCloud.lists.count) and \(inCloud.items.count), and they differ")
        }
        var byTitle: [String: (name: String, labels: Set<String>)] = [:]
        for (name, list) in inCloud.lists {
            if let other = byTitle[list.title] {
                problems.append("\"\(list.title)\" is two lists in the cloud: \(other.name) and \(name)")
            }
            byTitle[list.title] = (name, list.labels)
        }
        for (item, parent) in inCloud.items where inCloud.lists[parent] == nil {
            problems.append("item \(item) is under \(parent), which is no list")
        }
        for (title, certainty) in ledger.titlesMade where certainty == .sure && byTitle[title] == nil && !ledger.titlesDeleted.contains(title) {
            problems.append("\"\(title)\" was made, and no list has that title")
        }
        for (label, history) in ledger.labels.sorted(by: { $0.key < $1.key }) where !ledger.titlesDeleted.contains(history.title) {
            let held = byTitle[history.title]?.labels.contains(label) ?? false
            switch (history.added, history.removed) {
            case (.sure?, nil) where !held:
                problems.append("label \(label), added to \"\(history.title)\", is on no list")
            case (_, .sure?) where held:
                problems.append("label \(label), removed from \"\(history.title)\", came back")
            default:
                continue
            }
        }
        for (item, history) in ledger.items.sorted(by: { $0.key < $1.key }) where !ledger.titlesDeleted.contains(history.title) {
            if history.deleted == .sure, inCloud.items[item] != nil {
                problems.append("item \(item), deleted from \"\(history.title)\", came back")
            }
            guard history.certainty == .sure, history.deleted == nil else { continue }
            guard let parent = inCloud.items[item] else {
                problems.append("item \(item), added to \"\(history.title)\", is gone")
                continue
            }
            if parent != byTitle[history.title]?.name {
                problems.append("item \(item) is under \(parent), not under \"\(history.title)\"'s list")
            }
        }
        // An item acknowledged, deleted by nobody, gone with a list another device deleted
        // before it ever reached the cloud (no tombstone of it there): the change was dropped,
        // and the device that made it must name it, after any kill. One that reached the cloud
        // first went with its list by the deleting device's hand.
        for (item, history) in ledger.items.sorted(by: { $0.key < $1.key }) where history.certainty == .sure && history.deleted == nil {
            guard ledger.titlesDeleted.contains(history.title), inCloud.items[item] == nil, zone?.tombstones.contains(item) != true,
                let maker = Self.devices.first(where: { item.hasPrefix("item-\($0)-") }),
                ledger.titlesDeletedBy[maker]?.contains(history.title) != true
            else { continue }
            if holdings[maker]?.named.contains(item) != true {
                problems.append("item \(item), added to \"\(history.title)\" on \(maker), went with a list deleted elsewhere and no notice names it")
            }
        }
        return problems
    }
}

/// One device of `soak-keys`: makes lists, labels and items and syncs until killed (`--settle`:
/// syncs, then prints what it holds).
struct KeySoakWorker {
    let options: WorkerOptions

    init(arguments: [String]) throws {
        options = try WorkerOptions(arguments: arguments, command: "soak-keys-worker")
    }

    func run() async throws -> Int32 {
        let device = try options.device(of: KeySoak.account)
        guard options.settle else { try await writeAndSync(device) }
        for _ in 0..<3 { _ = await device.engine.sync() }
        for list in try device.store.fetchAll(SharedList.self) {
            print("LIST \(list.recordName) \(list.title) \(list.labels.sorted().joined(separator: ","))")
        }
        for item in try device.store.fetchAll(ListItem.self) { print("ITEM \(item.recordName) \(item.parent?.recordName ?? "")") }
        for change in try await device.engine.lostChanges() {
            let names: [String] = switch change.event {
            case .removedWithParent(let key, _), .changeLostToDeletion(let key): [key.recordName]
            case .changeReverted(let failed): [failed.recordName]
            case .shareEnded(_, _, let lost): lost.map(\.recordName)
            default: []
            }
            for name in names { print("LOST \(name)") }
        }
        return 0
    }

    private func writeAndSync(_ device: Device) async throws -> Never {
        var random = options.randomness()
        let (name, run) = (options.name, options.run)
        let short = String(name.split(separator: "-").last ?? "x")
        var step = 0
        // With `SOAK_TRACE`: each write, and each list a pass changed, on standard error.
        let tracing = ProcessInfo.processInfo.environment["SOAK_TRACE"] == "1"
        var shown: [String: String] = [:]
        func trace(_ line: @autoclosure () -> String) {
            if tracing { FileHandle.standardError.write(Data("\(Date().timeIntervalSince1970) run \(run) step \(step): \(line())\n".utf8)) }
        }
        func traceLists() throws {
            guard tracing else { return }
            var now: [String: String] = [:]
            for list in try device.store.fetchAll(SharedList.self) { now[list.recordName] = "\(list.title) [\(list.labels.sorted().joined(separator: ","))]" }
            for (list, state) in now.sorted(by: { $0.key < $1.key }) where shown[list] != state { trace("list \(list) \(state)") }
            for list in shown.keys.sorted() where now[list] == nil { trace("list \(list) gone") }
            shown = now
        }
        while true {
            // What the last step (a write, or a pass) left.
            try traceLists()
            step += 1
            // Mostly this quarter of a second's titles, now and then an older one's (or the
            // previous quarter's, which another device may be making now).
            let quarters = Int.random(in: 0..<3, using: &random) == 0 ? Int.random(in: 1...8, using: &random) : 0
            let title = KeySoak.title(KeySoak.titles.randomElement(using: &random)!, at: Date(timeIntervalSinceNow: -0.25 * Double(quarters)))
            let list = try device.store.fetchAll(SharedList.self).first { $0.title == title }
            switch Int.random(in: 0..<12, using: &random) {
            case 0, 1:
                guard list == nil else { continue }
                let made = SharedList(recordName: "\(name)-\(run)-\(step)", title: title)
                try promise("create \(title) \(made.recordName)") { try device.store.save(made) }
            case 2, 3, 4:
                guard var list else { continue }
                let label = "\(short)\(run)s\(step)"
                list.labels.append(label)
                try promise("label \(title) \(label)") { try device.store.save(list) }
            case 5:
                guard var list, let label = list.labels.randomElement(using: &random) else { continue }
                list.labels.removeAll { $0 == label }
                try promise("unlabel \(title) \(label)") { try device.store.save(list) }
            case 6:
                guard let list else { continue }
                let item = ListItem(recordName: "item-\(name)-\(run)-\(step)", parent: RecordReference(recordName: list.recordName), text: title, assignee: .unset)
                try promise("item \(title) \(item.recordName)") { try device.store.save(item) }
            case 7:
                guard let list, let item = try device.store.fetchAll(ListItem.self, where: { $0.parent?.recordName == list.recordName }).randomElement(using: &random) else { continue }
                try promise("unitem \(title) \(item.recordName)") { try device.store.delete(item) }
            case 8 where Int.random(in: 0..<12, using: &random) == 0:
                guard let list else { continue }
                try promise("drop \(title) \(list.recordName)") { try device.store.delete(list) }
            default:
                trace("pass")
                let result = await device.engine.sync()
                trace("pass \(result)")
            }
        }
    }
}
