import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
@testable import SyncStorage
import SyncRuntime
@testable import SyncLocalCloud

/// `syncgen-inspect`, run as a user runs it, on a phone's store file the phone holds open, with a
/// write transaction of another connection in progress: it reads, never writes, and says so.
@Suite("syncgen-inspect: a store file read offline")
struct InspectorTests {
    static func inspect(_ arguments: [String]) async throws -> ChildProcess.Run {
        try await ChildProcess.run(ChildProcess.product("syncgen-inspect"), arguments)
    }

    /// The bytes of the store's files: what the inspector must leave as they are.
    static func bytes(of url: URL) -> [Data?] {
        ["", "-wal"].map { try? Data(contentsOf: URL(fileURLWithPath: url.path + $0)) }
    }

    /// A conflict, a change set aside and one waiting, read through every command; the files'
    /// bytes are the same after. Breaking it (the store opened as the app opens it): the file's
    /// layout steps and journal are written, or the reader waits for the writer's lock.
    @Test func everyCommandReadsTheStoreAnotherProcessHoldsOpen() async throws {
        let world = try SyncWorld()
        let url = world.assetFolder.appendingPathComponent("alice-phone.sqlite")
        let phone = try world.device("alice-phone", account: "alice", store: SyncStore(url: url, clock: world.clock))
        let laptop = try world.device("alice-laptop", account: "alice")
        try await world.conflictAndSetAside(phone: phone, laptop: laptop, name: "n", words: "milk")
        try phone.store.save(Note(recordName: "waiting", title: "not pushed"))

        // Another connection holds the write lock, mid-transaction, while the inspector reads.
        let writer = try SQLiteDatabase(.file(url))
        try writer.execute("BEGIN IMMEDIATE")
        try writer.query("INSERT INTO sync_state (key, value) VALUES ('inspector.test', 'uncommitted')")
        let before = Self.bytes(of: url)

        let summary = try await Self.inspect([url.path])
        #expect(summary.status == 0, "\(summary.errors)")
        #expect(summary.output.contains("(read only)") && summary.output.contains("account: _alice"))
        #expect(summary.output.contains("pending changes: 1 Note"))
        #expect(summary.output.contains("set aside: 1") && summary.output.contains("save of Note huge: error 27"))
        #expect(summary.output.contains("recent conflicts: 1") && summary.output.contains("Note n at "))
        #expect(!summary.output.contains("milk"), "nothing a user wrote: \(summary.output)")

        let json = try await Self.inspect([url.path, "--format", "json"])
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let diagnostics = try decoder.decode(SyncDiagnostics.self, from: Data(json.output.utf8))
        #expect(diagnostics.pendingChanges == ["Note": 1] && diagnostics.setAside.map(\.recordName) == ["huge"] && diagnostics.engine == nil)

        #expect(try await Self.inspect([url.path, "pending"]).output == "Note waiting\n")
        #expect(try await Self.inspect([url.path, "set-aside"]).output.hasPrefix("save of Note huge (zone of __defaultOwner__) at "))
        let conflicts = try await Self.inspect([url.path, "conflicts", "--contents"])
        #expect(conflicts.output.contains("title: ancestor") && conflicts.output.contains("milk"))
        let history = try await Self.inspect([url.path, "history", "Note", "waiting"])
        #expect(history.output.contains("Note waiting: stored") && history.output.contains("save by app"))
        #expect(history.output.contains("versions the cloud returned: none"))

        #expect(Self.bytes(of: url) == before, "the inspector wrote the store")
        try writer.execute("ROLLBACK")
    }

    /// What it cannot read, it says, naming the file, and exits 1; a misuse exits 2.
    @Test func aFileItCannotReadIsNamed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let absent = folder.appendingPathComponent("absent.sqlite").path
        let missing = try await Self.inspect([absent])
        #expect(missing.status == 1 && missing.errors.contains("\(absent): no store file there"), "\(missing.errors)")
        #expect(!FileManager.default.fileExists(atPath: absent), "the inspector made a store")
        let url = folder.appendingPathComponent("newer.sqlite")
        _ = try SyncStore(url: url)
        let database = try SQLiteDatabase(.file(url))
        try database.query("INSERT INTO syncgen_migrations (name) VALUES ('a step of a later version')")
        let newer = try await Self.inspect([url.path])
        #expect(newer.status == 1 && newer.errors.contains("newer version of syncgen"), "\(newer.errors)")
        let usage = try await Self.inspect([url.path, "history", "Note"])
        #expect(usage.status == 2 && usage.errors.contains("history takes a record type and a record name"))
    }

    /// A path that is no store gets a message saying what it is, and exit status 1, at once:
    /// a named pipe (SQLite would wait for a writer for ever), an empty file (SQLite takes it for
    /// an empty database: "written by an older version"), a device, a folder ("disk I/O error"),
    /// a LocalCloud file ("written by a newer version"), a file of other bytes. Breaking it
    /// (opening whatever the path names) hangs on the pipe, and says the rest in SQLite's words.
    @Test func aPathThatIsNoStoreIsSaidForWhatItIs() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipe = folder.appendingPathComponent("pipe.sqlite").path
        #expect(mkfifo(pipe, 0o600) == 0)
        // A link to itself: opening it fails with ELOOP (issue 57 found it called a named pipe).
        let loop = folder.appendingPathComponent("loop.sqlite")
        try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: loop.path)
        let empty = folder.appendingPathComponent("empty.sqlite")
        try Data().write(to: empty)
        let text = folder.appendingPathComponent("notes.txt")
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: text)
        let cloud = folder.appendingPathComponent("cloud.sqlite")
        _ = try LocalCloud.file(at: cloud)
        let cases: [(path: String, says: String)] = [
            (pipe, "\(pipe): not a store: it is a named pipe, not a regular file"),
            (loop.path, "\(loop.path): not a store: the path is a symbolic link that leads to itself (a loop)"),
            (empty.path, "\(empty.path): not a store: the file is empty"),
            ("/dev/null", "/dev/null: not a store: it is a device, not a file"),
            (folder.path, "\(folder.path): not a store: it is a folder"),
            (cloud.path, "\(cloud.path): not the local store, but another file syncgen writes (its layout starts with the step 'localCloud')"),
            (text.path, "\(text.path): not a store: the file is no SQLite database"),
        ]
        for (path, says) in cases {
            let run = try await Self.inspect([path])
            #expect(run.status == 1 && run.errors.contains(says), "\(path): \(run.errors)")
        }
    }
}
