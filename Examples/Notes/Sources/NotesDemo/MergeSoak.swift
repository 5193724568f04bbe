import Foundation
import SyncRuntime
import SyncLocalCloud

/// `notes-demo soak-merge`: three of Alice's devices, real processes syncing over one LocalCloud
/// file at the same time, add to and take from the counts of a pantry's items (`quantity`,
/// `merge: counter`) and write words into one item's note (`note`, `merge: text`), each at a
/// random place; with `--kills N`, killed with SIGKILL at random moments.
///
/// At the end every device and the cloud agree, every count is its start plus every change a
/// device acknowledged (and some of those announced and cut off by a kill, which may have landed
/// or not), exactly, and the note holds every word a device acknowledged writing, once, and no
/// word nobody wrote. Nobody removes a word: each side of every merge only inserted, so a merge
/// that drops one (two insertions at one place) or counts a change twice (a push resent after a
/// kill) is a failure here.
struct MergeSoak {
    static let help = """
        USAGE: notes-demo soak-merge [--kills N] [--writes N] [--seed S] [--keep DIR]

          --kills N    how many times a worker is killed (default 10; 0: never)
          --writes N   how many acknowledged writes at least before the end (default 600)
          --seed S     the random choices of the driver and its workers (default: the time)
          --keep DIR   run in DIR and keep it (default: a temporary folder, removed after)
        """

    static let devices = ["alice-phone", "alice-laptop", "alice-tablet"]
    static let account = "alice"
    static let pantry = "pantry"
    /// The items whose counts change, and what each starts at.
    static let counts: [(recordName: String, text: String, start: Double)] = [("item-eggs", "Eggs", 12), ("item-flour", "Flour", 5)]
    /// The item whose note the devices write into, and the note's first words.
    static let noted = "item-eggs"
    static let firstNote = "Free-range from the farm shop"
    /// What a device adds to or takes from a count at once.
    static let changes: [Double] = [-2, -1, 1, 3]

    let kills: Int
    let writes: Int
    let seed: UInt64
    let folder: URL
    let keep: Bool

    init(arguments: [String]) throws {
        var (kills, writes) = (10, 600)
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
        self.folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("notes-merge-soak-\(UUID().uuidString)")
    }

    /// What the devices promised: each count's changes and each word written, acknowledged
    /// (`sure`) or announced by a worker killed before it acknowledged (`unsure`: landed or not).
    final class Ledger: @unchecked Sendable {
        private let lock = NSLock()
        private var announced: [String: [String]] = [:]
        private(set) var changes: [String: (sure: Double, unsure: [Double])] = [:]
        private(set) var words: [String: Bool] = [:]
        private(set) var acknowledged = 0
        /// Writes announced by a worker killed before it acknowledged them.
        private(set) var cutOff = 0
        private var sinceKill = 0

        /// `WILL` or `ACK`, then `count <record> <change>` or `word <record> <word>`.
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
            apply(Array(parts.dropFirst()), sure: true)
            acknowledged += 1
            sinceKill += 1
        }

        /// A worker was killed: the write it announced may have committed.
        func killed(_ worker: String) {
            lock.lock()
            defer { lock.unlock() }
            sinceKill = 0
            guard let write = announced.removeValue(forKey: worker) else { return }
            apply(write, sure: false)
            cutOff += 1
        }

        private func apply(_ write: [String], sure: Bool) {
            switch write[0] {
            case "count":
                let change = Double(write[2]) ?? 0
                if sure { changes[write[1], default: (0, [])].sure += change } else { changes[write[1], default: (0, [])].unsure.append(change) }
            case "word": words[write[2]] = sure || words[write[2]] == true
            default: break
            }
        }

        var pending: Int { lock.withLock { sinceKill } }
        var total: Int { lock.withLock { acknowledged } }
    }

    /// What a device (or the cloud) holds: each count, and the note.
    struct Holding: Equatable {
        var counts: [String: Double] = [:]
        var note = ""
    }

    func run() async throws -> Int32 {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(at: folder) } }
        print("notes-soak-merge: \(kills) kills, at least \(writes) writes, seed \(seed), in \(folder.path)")
        try await fillThePantry()
        var random = SeededRandom(seed: seed)
        let ledger = Ledger()
        var runs = Dictionary(uniqueKeysWithValues: Self.devices.map { ($0, 0) })
        func start(_ name: String) throws -> Soak.Worker {
            try Soak.Worker(
                name: name, account: Self.account,
                arguments: ["soak-merge-worker", "--store", folder.path, "--device", name, "--run", String(runs[name]!), "--seed", String(seed)],
                line: { ledger.record($0, worker: name) })
        }
        var workers = try Self.devices.map(start)
        var killed = 0
        while killed < kills || ledger.total < writes {
            if killed < kills {
                // After a random number of acknowledged writes: a random moment of some worker's
                // loop, in the middle of a change, a merge or a push.
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
        let summary = "\(kills) kills, \(ledger.total) writes acknowledged (\(ledger.cutOff) more cut off by a kill), \(ledger.words.count) words written, counts \(Self.counts.map { "\($0.recordName) \(holdings[Self.devices[0]]?.counts[$0.recordName].map { String(Int($0)) } ?? "?")" }.joined(separator: ", ")) on \(Self.devices.count) devices and in the cloud, \(problems.count) problems"
        print(problems.isEmpty ? "notes-soak-merge: ok: \(summary)" : "notes-soak-merge: FAILED: \(summary) (seed \(seed))")
        return problems.isEmpty ? 0 : 1
    }

    /// The pantry and its items, made and pushed by a device of their own before the workers
    /// start, so every count and the note have one start every device pulls.
    private func fillThePantry() async throws {
        let cloud = try LocalCloud.file(at: folder.appendingPathComponent("cloud.sqlite"), configuration: LocalCloud.Configuration(downloadsFolder: folder.appendingPathComponent("downloads")))
        let device = try Device(name: "alice-setup", account: Self.account, cloud: cloud, folder: folder, clock: SystemClock())
        try device.store.save(SharedList(recordName: Self.pantry, title: "Pantry"))
        for count in Self.counts {
            try device.store.save(ListItem(
                recordName: count.recordName, parent: RecordReference(recordName: Self.pantry), text: count.text, quantity: count.start, assignee: .unset,
                note: count.recordName == Self.noted ? Self.firstNote : nil))
        }
        guard await device.sync() else { throw UsageError(message: "the pantry did not reach the cloud") }
    }

    /// A device's passes after the storm, in a process of its own, and what it then holds.
    static func settle(_ name: String, folder: URL) throws -> Holding {
        var holding = Holding()
        for line in try Soak.output(of: ["soak-merge-worker", "--store", folder.path, "--device", name, "--settle"], device: name) {
            let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
            if parts.first == "COUNT", parts.count == 3 { holding.counts[parts[1]] = Double(parts[2]) }
            if parts.first == "NOTE" { holding.note = parts.count == 3 ? parts[2] : "" }
        }
        return holding
    }

    func check(_ ledger: Ledger, holdings: [String: Holding]) throws -> [String] {
        let cloud = try LocalCloud.file(at: folder.appendingPathComponent("cloud.sqlite"), configuration: LocalCloud.Configuration(downloadsFolder: folder.appendingPathComponent("downloads")))
        let records = try cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: Self.account)?.records ?? [:]
        var inCloud = Holding()
        for record in records.values where record.recordType == ListItem.recordType {
            if case .double(let count) = record.fields["quantity"] { inCloud.counts[record.id.recordName] = count }
            if record.id.recordName == Self.noted, case .string(let note) = record.fields["note"] { inCloud.note = note }
        }
        var problems: [String] = []
        for device in Self.devices where holdings[device] != inCloud {
            problems.append("\(device) holds counts \(holdings[device]?.counts ?? [:]) and a note of \(holdings[device]?.note.count ?? 0) characters, the cloud \(inCloud.counts) and \(inCloud.note.count), and they differ")
        }
        for count in Self.counts {
            let changes = ledger.changes[count.recordName] ?? (0, [])
            // The sums the changes cut off by a kill may add, each landed or not.
            var possible: Set<Double> = [0]
            for change in changes.unsure { possible.formUnion(possible.map { $0 + change }) }
            let held = inCloud.counts[count.recordName] ?? .nan
            if !possible.contains(held - count.start - changes.sure) {
                problems.append("\(count.recordName) is \(held), and started at \(count.start) with \(changes.sure) acknowledged and \(changes.unsure) cut off")
            }
        }
        var times: [Substring: Int] = [:]
        for word in inCloud.note.split(separator: " ") { times[word, default: 0] += 1 }
        for (word, sure) in ledger.words.sorted(by: { $0.key < $1.key }) {
            let found = times[Substring(word)] ?? 0
            if sure && found != 1 || found > 1 { problems.append("the word \(word)\(sure ? ", acknowledged," : "") is in the note \(found) times") }
        }
        let first = Set(Self.firstNote.split(separator: " "))
        for word in times.keys where ledger.words[String(word)] == nil && !first.contains(word) {
            problems.append("the note holds \(word), which nobody wrote")
        }
        for word in first where times[word] != 1 { problems.append("the note's first word \(word) is in it \(times[word] ?? 0) times") }
        return problems
    }
}

/// One device of `soak-merge`: changes counts, writes words into the note and syncs until
/// killed (`--settle`: syncs, then prints what it holds).
struct MergeSoakWorker {
    let options: WorkerOptions

    init(arguments: [String]) throws {
        options = try WorkerOptions(arguments: arguments, command: "soak-merge-worker")
    }

    func run() async throws -> Int32 {
        let device = try options.device(of: MergeSoak.account)
        guard options.settle else { try await writeAndSync(device) }
        for _ in 0..<3 { _ = await device.engine.sync() }
        for item in try device.store.fetchAll(ListItem.self) {
            if MergeSoak.counts.contains(where: { $0.recordName == item.recordName }) { print("COUNT \(item.recordName) \(item.quantity)") }
            if item.recordName == MergeSoak.noted { print("NOTE \(item.recordName) \(item.note ?? "")") }
        }
        return 0
    }

    /// Each change is read and written in one transaction (`store.write`), as an app changes a
    /// counter: a pull landing between the read and the save would count its change as this
    /// device's.
    private func writeAndSync(_ device: Device) async throws -> Never {
        var random = options.randomness()
        let short = String(options.name.split(separator: "-").last ?? "x")
        var step = 0
        while true {
            step += 1
            guard try device.store.fetch(ListItem.self, recordName: MergeSoak.noted) != nil else {
                _ = await device.engine.sync()  // the pantry is not here yet
                continue
            }
            switch Int.random(in: 0..<9, using: &random) {
            case 0, 1, 2:
                let item = MergeSoak.counts.randomElement(using: &random)!.recordName
                let change = MergeSoak.changes.randomElement(using: &random)!
                try promise("count \(item) \(Int(change))") {
                    try device.store.write { writer in
                        guard var counted = try writer.fetch(ListItem.self, recordName: item) else { return }
                        counted.quantity += change
                        try writer.save(counted)
                    }
                }
            case 3, 4:
                let word = "\(short)\(options.run)s\(step)"
                let place = Double.random(in: 0..<1, using: &random)
                try promise("word \(MergeSoak.noted) \(word)") {
                    try device.store.write { writer in
                        guard var noted = try writer.fetch(ListItem.self, recordName: MergeSoak.noted) else { return }
                        var words = (noted.note ?? "").split(separator: " ").map(String.init)
                        words.insert(word, at: Int(place * Double(words.count + 1)))
                        noted.note = words.joined(separator: " ")
                        try writer.save(noted)
                    }
                }
            default:
                _ = await device.engine.sync()
            }
        }
    }
}
