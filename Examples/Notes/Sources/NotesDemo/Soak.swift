import Foundation
import SyncRuntime
import SyncLocalCloud

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `notes-demo soak`: real processes killed with SIGKILL at random moments while they write and
/// sync over one LocalCloud file; then every device must hold every write it acknowledged.
///
/// Three devices of two accounts each run `notes-demo soak-worker`: a loop of saves, edits and
/// deletions of the device's own notes (in the sync zone) and journal entries (in the "Personal"
/// zone), and sync passes: every pass pulls and pushes two zones. Midway, Alice's laptop moves her
/// journal's zone into a "Household" zone (`SyncEngine.moveZone`), while her phone goes on
/// writing entries and both are killed at random moments; from then on every entry must be in
/// the household zone, once. A worker prints `ACK` once a write has
/// returned: that write was promised to the user. The driver kills a random worker after a
/// random number of acknowledgements and starts it again on the same store file, `--kills`
/// times; then each device settles (a few passes) and reports its notes. Every note must be on
/// every device of its account and in the cloud as its last acknowledged write left it (or a
/// later write the kill cut off between committing and acknowledging); nothing acknowledged as
/// deleted may come back; no record may be in another zone than its model's (the household zone
/// for the journal once it moved), twice, or in the other account's.
struct Soak {
    static let help = """
        USAGE: notes-demo soak [--kills N] [--seed S] [--keep DIR]

          --kills N    how many times a worker is killed (default 20)
          --seed S     the random choices of the driver and its workers (default: the time)
          --keep DIR   run in DIR and keep it (default: a temporary folder, removed after)
        """

    static let devices = [(name: "alice-phone", account: "alice"), (name: "alice-laptop", account: "alice"), (name: "bob-phone", account: "bob")]

    let kills: Int
    let seed: UInt64
    let folder: URL
    let keep: Bool

    init(arguments: [String]) throws {
        var kills = 20
        var seed = UInt64(Date().timeIntervalSince1970 * 1000)
        var folder: URL?
        var rest = arguments[...]
        while let option = rest.popFirst() {
            if option == "--help" { throw UsageError(message: "\n" + Self.help) }
            guard let value = rest.popFirst() else { throw UsageError(message: "\(option) needs a value\n\n" + Self.help) }
            switch option {
            case "--kills": kills = Int(value) ?? -1
            case "--seed": seed = UInt64(value) ?? 0
            case "--keep": folder = URL(fileURLWithPath: value)
            default: throw UsageError(message: "unknown option \(option)\n\n" + Self.help)
            }
        }
        guard kills >= 0 else { throw UsageError(message: "--kills needs a number\n\n" + Self.help) }
        self.kills = kills
        self.seed = seed
        self.keep = folder != nil
        self.folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("notes-soak-\(UUID().uuidString)")
    }

    /// What the devices promised, in the order they wrote it. A worker announces each write
    /// (`WILL`) before it makes it and acknowledges it (`ACK`) once it returned; a worker killed
    /// between the two may or may not have committed that one write. So a note must end as its
    /// last acknowledged write left it, or as a later write that was announced and never
    /// acknowledged left it: anything else is a lost write.
    final class Ledger: @unchecked Sendable {
        /// A note's state after a write: its title, or nil once deleted.
        typealias State = String?

        struct History {
            var account = ""
            /// The last acknowledged write's order and resulting state.
            var acknowledged: (order: Int, state: State)?
            /// Writes announced and never acknowledged (their worker was killed), in order.
            var unsure: [(order: Int, state: State)] = []

            /// The states the note may rightly end in: as its last acknowledged write left it (never
            /// there, without one), or as a later unsure write did.
            var possibleStates: [State] {
                [acknowledged?.state ?? nil] + unsure.filter { $0.order > acknowledged?.order ?? 0 }.map(\.state)
            }
        }

        private let lock = NSLock()
        private var notes: [String: History] = [:]
        /// Per worker, the write it announced and has not acknowledged yet.
        private var announced: [String: (name: String, state: State)] = [:]
        private var order = 0
        private(set) var acknowledged = 0
        /// Acknowledgements since the last kill.
        private var sinceKill = 0

        func record(_ line: String, worker: String, account: String) {
            let parts = line.split(separator: " ", maxSplits: 3).map(String.init)
            guard parts.count >= 3, parts[0] == "WILL" || parts[0] == "ACK" else { return }
            let state: State = parts[1] == "delete" ? nil : (parts.count > 3 ? parts[3] : "")
            lock.lock()
            defer { lock.unlock() }
            if parts[0] == "WILL" {
                announced[worker] = (parts[2], state)
                return
            }
            announced[worker] = nil
            order += 1
            notes[parts[2], default: History()].account = account
            notes[parts[2]]!.acknowledged = (order, state)
            acknowledged += 1
            sinceKill += 1
        }

        /// A worker was killed: the write it announced may have committed.
        func killed(_ worker: String, account: String) {
            lock.lock()
            defer { lock.unlock() }
            sinceKill = 0
            guard let write = announced.removeValue(forKey: worker) else { return }
            order += 1
            notes[write.name, default: History()].account = account
            notes[write.name]!.unsure.append((order, write.state))
        }

        var snapshot: [String: History] {
            lock.lock()
            defer { lock.unlock() }
            return notes
        }

        var pending: Int {
            lock.lock()
            defer { lock.unlock() }
            return sinceKill
        }
    }

    /// One running worker process (this program, with `arguments`) and the thread that hands
    /// each line it prints to `line`.
    final class Worker {
        let name: String
        let account: String
        let process = Process()
        private let reader: Thread

        /// `log`: where the worker's standard error goes (the engine's log, a trace); nil: here.
        init(name: String, account: String, arguments: [String], log: URL? = nil, line: @escaping @Sendable (String) -> Void) throws {
            self.name = name
            self.account = account
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            if let log {
                if !FileManager.default.fileExists(atPath: log.path) { _ = FileManager.default.createFile(atPath: log.path, contents: nil) }
                let handle = try FileHandle(forWritingTo: log)
                try handle.seekToEnd()
                process.standardError = handle
            } else {
                process.standardError = FileHandle.standardError
            }
            let handle = output.fileHandleForReading
            reader = Thread {
                var buffer = Data()
                while case let chunk = handle.availableData, !chunk.isEmpty {
                    buffer.append(chunk)
                    while let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                        line(String(decoding: buffer[buffer.startIndex..<end], as: UTF8.self))
                        buffer.removeSubrange(buffer.startIndex...end)
                    }
                }
            }
            try process.run()
            reader.start()
        }

        convenience init(name: String, account: String, run: Int, seed: UInt64, folder: URL, ledger: Ledger) throws {
            try self.init(
                name: name, account: account,
                arguments: ["soak-worker", "--store", folder.path, "--device", name, "--account", account, "--run", String(run), "--seed", String(seed)],
                line: { ledger.record($0, worker: name, account: account) })
        }

        /// SIGKILL, then waits until the process is gone and all it printed is read.
        func kill() {
            #if canImport(Glibc)
            _ = Glibc.kill(process.processIdentifier, SIGKILL)
            #else
            _ = Darwin.kill(process.processIdentifier, SIGKILL)
            #endif
            process.waitUntilExit()
            while !reader.isFinished { usleep(1_000) }
        }

        func kill(_ ledger: Ledger) {
            kill()
            ledger.killed(name, account: account)
        }
    }

    func run() async throws -> Int32 {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(at: folder) } }
        print("notes-soak: \(kills) kills, seed \(seed), in \(folder.path)")
        var random = SeededRandom(seed: seed)
        let ledger = Ledger()
        var runs = Dictionary(uniqueKeysWithValues: Self.devices.map { ($0.name, 0) })
        var workers = try Self.devices.map { try Worker(name: $0.name, account: $0.account, run: 0, seed: seed, folder: folder, ledger: ledger) }
        for _ in 0..<kills {
            // Kill after a random number of acknowledged writes: a random moment of some worker's
            // loop, in the middle of a save, a pull or a push.
            let after = Int.random(in: 1...12, using: &random)
            while ledger.pending < after { usleep(2_000) }
            let index = Int.random(in: 0..<workers.count, using: &random)
            let victim = workers[index]
            victim.kill(ledger)
            runs[victim.name, default: 0] += 1
            workers[index] = try Worker(name: victim.name, account: victim.account, run: runs[victim.name]!, seed: seed, folder: folder, ledger: ledger)
        }
        for worker in workers { worker.kill(ledger) }

        // Settle: every device syncs until the others' last writes reached it.
        var notes: [String: [String: String]] = [:]
        for _ in 0..<2 {
            for device in Self.devices {
                notes[device.name] = try Self.settle(device.name, account: device.account, folder: folder)
            }
        }
        let problems = try check(ledger.snapshot, notes: notes)
        let cloud = try LocalCloud.file(at: folder.appendingPathComponent("cloud.sqlite"), configuration: LocalCloud.Configuration(downloadsFolder: folder.appendingPathComponent("downloads")))
        print("notes-soak: alice's journal is in her \(Self.journalZone(of: "alice", in: try cloud.snapshot())) zone")
        for problem in problems.prefix(20) { print("   ! \(problem)") }
        let records = notes.values.reduce(0) { $0 + $1.count }
        let summary = "\(kills) kills, \(ledger.acknowledged) writes acknowledged, \(records) records checked on \(Self.devices.count) devices and in the cloud, \(problems.count) problems"
        print(problems.isEmpty ? "notes-soak: ok: \(summary)" : "notes-soak: FAILED: \(summary) (seed \(seed))")
        return problems.isEmpty ? 0 : 1
    }

    /// A device's passes after the storm, in a process of its own, and the notes it then holds.
    static func settle(_ name: String, account: String, folder: URL) throws -> [String: String] {
        var notes: [String: String] = [:]
        for line in try output(of: ["soak-worker", "--store", folder.path, "--device", name, "--account", account, "--settle"], device: name) where line.hasPrefix("NOTE ") {
            let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
            notes[parts[1]] = parts.count > 2 ? parts[2] : ""
        }
        return notes
    }

    /// The lines this program prints when run with `arguments` (to its end); throws when it fails.
    static func output(of arguments: [String], device: String) throws -> [Substring] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw UsageError(message: "\(device) did not settle") }
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
    }

    /// Every note as its writes may rightly have left it, in its own account's zone; every device
    /// of an account in agreement with its zone.
    func check(_ ledger: [String: Ledger.History], notes: [String: [String: String]]) throws -> [String] {
        let cloud = try LocalCloud.file(at: folder.appendingPathComponent("cloud.sqlite"), configuration: LocalCloud.Configuration(downloadsFolder: folder.appendingPathComponent("downloads")))
        let snapshot = try cloud.snapshot()
        var problems: [String] = []
        for account in Set(Self.devices.map(\.account)).sorted() {
            // The notes of the sync zone and the journal of the zone it lives in (Personal, or the
            // zone Personal moved into), each read where its model lives: a record in another zone
            // is missing from this, and one left in the zone moved out of is a problem.
            let journalZone = Self.journalZone(of: account, in: snapshot)
            if journalZone != JournalEntry.zoneName!, let left = snapshot.zone(JournalEntry.zoneName!, ofAccount: account)?.records.values,
                left.contains(where: { $0.recordType == JournalEntry.recordType })
            {
                problems.append("\(account)'s journal moved into \(journalZone), and \(left.filter { $0.recordType == JournalEntry.recordType }.count) entries stay in \(JournalEntry.zoneName!)")
            }
            var zone: [String: String] = [:]
            for (zoneName, recordType, field) in [(SyncConstants.defaultSyncZoneName, Note.recordType, "title"), (journalZone, JournalEntry.recordType, "text")] {
                for record in (snapshot.zone(zoneName, ofAccount: account)?.records ?? [:]).values where record.recordType == recordType {
                    if case .string(let value) = record.fields[field] { zone[record.id.recordName] = value }
                }
            }
            for device in Self.devices where device.account == account {
                if notes[device.name] != zone { problems.append("\(device.name) holds \(notes[device.name]?.count ?? 0) notes, \(account)'s zone \(zone.count), and they differ") }
            }
            for (name, history) in ledger where history.account == account {
                let possible = history.possibleStates
                if !possible.contains(zone[name]) {
                    let shown = possible.map { $0.map { "'\($0)'" } ?? "deleted" }.joined(separator: " or ")
                    problems.append("\(name) should be \(shown), and is \(zone[name].map { "'\($0)'" } ?? "missing") in \(account)'s zone")
                }
            }
            for name in zone.keys where ledger[name]?.account != account {
                problems.append("\(name) is in \(account)'s zone, and was never written for it")
            }
        }
        return problems
    }
}

extension Soak {
    /// The zone the journal moves into midway.
    static let household = "Household"

    /// The zone `account`'s journal lives in: Personal, or the zone Personal moved into, as the
    /// move's marker in Personal says.
    static func journalZone(of account: String, in snapshot: LocalCloudSnapshot) -> String {
        let marker = snapshot.zone(JournalEntry.zoneName!, ofAccount: account)?.records.values.first { $0.recordType == "SyncgenZoneMove" }
        guard case .string(let target)? = marker?.fields["syncgenZoneInto"] else { return JournalEntry.zoneName! }
        return target
    }
}

/// What a soak worker is told: the folder of the cloud and the stores, its device and account,
/// which run of the device it is, the seed, and whether it only settles (`--settle`: syncs, then
/// prints what it holds).
struct WorkerOptions {
    let folder: URL
    let name: String
    let account: String?
    let run: Int
    let seed: UInt64
    let settle: Bool

    init(arguments: [String], command: String) throws {
        var options: [String: String] = [:]
        var settle = false
        var rest = arguments[...]
        while let option = rest.popFirst() {
            if option == "--settle" {
                settle = true
                continue
            }
            guard let value = rest.popFirst() else { throw UsageError(message: "\(option) needs a value") }
            options[String(option.dropFirst(2))] = value
        }
        guard let store = options["store"], let name = options["device"] else { throw UsageError(message: "\(command) needs --store and --device") }
        folder = URL(fileURLWithPath: store)
        self.name = name
        account = options["account"]
        run = Int(options["run"] ?? "0") ?? 0
        seed = UInt64(options["seed"] ?? "0") ?? 0
        self.settle = settle
    }

    /// The random choices of this run of this device: each run makes others than the last.
    func randomness() -> SeededRandom {
        SeededRandom(seed: seed &+ UInt64(run) &* 1_000_003 &+ UInt64(name.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
    }

    /// The worker's device of `account`, over the shared LocalCloud file.
    func device(of account: String) throws -> Device {
        let cloud = try LocalCloud.file(at: folder.appendingPathComponent("cloud.sqlite"), configuration: LocalCloud.Configuration(downloadsFolder: folder.appendingPathComponent("downloads")))
        return try Device(name: name, account: account, cloud: cloud, folder: folder, clock: SystemClock())
    }
}

/// One soak device: writes and syncs until killed (`--settle`: syncs, then prints its notes).
struct SoakWorker {
    let options: WorkerOptions
    let account: String

    init(arguments: [String]) throws {
        options = try WorkerOptions(arguments: arguments, command: "soak-worker")
        guard let account = options.account else { throw UsageError(message: "soak-worker needs --account") }
        self.account = account
    }

    func run() async throws -> Int32 {
        let device = try options.device(of: account)
        guard options.settle else { try await writeAndSync(device) }
        for _ in 0..<3 { _ = await device.engine.sync() }
        for note in try device.store.fetchAll(Note.self) { print("NOTE \(note.recordName) \(note.title)") }
        for entry in try device.store.fetchAll(JournalEntry.self) { print("NOTE \(entry.recordName) \(entry.text)") }
        return 0
    }

    /// Saves, edits, deletes and syncs until killed. The device's own notes and journal entries
    /// only, so each record has one writer and one last value.
    private func writeAndSync(_ device: Device) async throws -> Never {
        var random = options.randomness()
        let (name, run) = (options.name, options.run)
        let prefix = "\(account)-\(name)-"
        let journalPrefix = "journal-\(prefix)"
        var step = 0
        while true {
            step += 1
            let value = "r\(run)s\(step)"
            switch Int.random(in: 0..<13, using: &random) {
            case 0, 1, 2, 3:
                let note = Note(recordName: "\(prefix)\(run)-\(step)", title: value)
                try promise("save \(note.recordName) \(value)") { try device.store.save(note) }
            case 4, 5:
                if var note = try device.store.fetchAll(Note.self).filter({ $0.recordName.hasPrefix(prefix) }).randomElement(using: &random) {
                    note.title = value
                    try promise("save \(note.recordName) \(value)") { try device.store.save(note) }
                }
            case 6:
                if let note = try device.store.fetchAll(Note.self).filter({ $0.recordName.hasPrefix(prefix) }).randomElement(using: &random) {
                    try promise("delete \(note.recordName)") { try device.store.delete(note) }
                }
            case 7, 8:
                let entry = JournalEntry(recordName: "\(journalPrefix)\(run)-\(step)", text: value)
                try promise("save \(entry.recordName) \(value)") { try device.store.save(entry) }
            case 9:
                if var entry = try device.store.fetchAll(JournalEntry.self).filter({ $0.recordName.hasPrefix(journalPrefix) }).randomElement(using: &random) {
                    entry.text = value
                    try promise("save \(entry.recordName) \(value)") { try device.store.save(entry) }
                }
            case 10:
                if let entry = try device.store.fetchAll(JournalEntry.self).filter({ $0.recordName.hasPrefix(journalPrefix) }).randomElement(using: &random) {
                    try promise("delete \(entry.recordName)") { try device.store.delete(entry) }
                }
            case 11 where name == "alice-laptop" && step >= 25:
                // Midway, the laptop moves the journal's zone, once: a kill may cut the call or
                // the passes that carry it out, which go on at the next run.
                if try device.engine.diagnostics().zones.allSatisfy({ $0.movedInto == nil }) {
                    try? await device.engine.moveZone(JournalEntry.zoneName!, into: Soak.household)
                }
            default:
                _ = await device.engine.sync()
            }
        }
    }

}

/// Announces a write, makes it, and acknowledges it once it returned: the promise a soak checks.
/// Written unbuffered, so a kill loses no line.
func promise(_ write: String, _ body: () throws -> Void) throws {
    FileHandle.standardOutput.write(Data("WILL \(write)\n".utf8))
    try body()
    FileHandle.standardOutput.write(Data("ACK \(write)\n".utf8))
}
