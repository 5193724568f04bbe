import Foundation
import Testing
@testable import SyncLocalStore
@testable import SyncLocalCloud
import SyncRuntime
import SyncStorage
import SyncTesting

/// The files' layouts (`DatabaseMigrator`): the local store and LocalCloud's file each reach their
/// layout by named steps recorded in the file; an old file runs the steps it lacks, and a file a
/// newer version wrote is refused before anything is written.
@Suite("File layouts: named steps, recorded once, a newer file refused")
struct FileLayoutTests {
    static func file() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("layout-\(UUID().uuidString).sqlite")
    }

    /// A migrator whose steps count their runs in a table of the file.
    static func counting(_ names: [String]) -> DatabaseMigrator {
        DatabaseMigrator(fileKind: "a test file", steps: names.map { name in
            DatabaseMigrator.Step(name) { database in
                try database.execute("CREATE TABLE IF NOT EXISTS runs (step TEXT NOT NULL)")
                try database.query("INSERT INTO runs (step) VALUES (?)", [.text(name)])
            }
        })
    }

    @Test func eachStepRunsOnceAndAStepOfALaterVersionRunsOnAnOlderFile() throws {
        let database = try SQLiteDatabase(.memory)
        try Self.counting(["a", "b"]).migrate(database)
        try Self.counting(["a", "b"]).migrate(database)
        try Self.counting(["a", "b", "c"]).migrate(database)
        #expect(try database.query("SELECT step FROM runs ORDER BY rowid").map { $0.text(0) } == ["a", "b", "c"])
        #expect(try DatabaseMigrator.appliedSteps(database) == ["a", "b", "c"])
    }

    /// A file opened at an old step and taken to the next one (`upTo:`), as a test of one step
    /// does; then the rest.
    @Test func aFileStopsAtAStepAndGoesOnFromIt() throws {
        let database = try SQLiteDatabase(.memory)
        let migrator = Self.counting(["a", "b", "c"])
        try migrator.migrate(database, upTo: "a")
        #expect(try DatabaseMigrator.appliedSteps(database) == ["a"])
        try migrator.migrate(database, upTo: "b")
        #expect(try DatabaseMigrator.appliedSteps(database) == ["a", "b"])
        try migrator.migrate(database)
        #expect(try database.query("SELECT step FROM runs ORDER BY rowid").map { $0.text(0) } == ["a", "b", "c"])
    }

    /// Each step is a transaction of its own: a step that fails leaves the steps before it done
    /// and itself undone (its half-made table gone), and the next opening runs it alone. Breaking
    /// it (one transaction for every step): the failure takes step a with it, and a runs twice.
    @Test func aFailedStepKeepsTheStepsBeforeItAndRunsAgain() throws {
        struct Refused: Error {}
        let database = try SQLiteDatabase(.memory)
        let failing = DatabaseMigrator(fileKind: "a test file", steps: Self.counting(["a"]).steps + [
            DatabaseMigrator.Step("b") { database in
                try database.execute("CREATE TABLE half (x)")
                throw Refused()
            },
        ])
        #expect(throws: Refused.self) { try failing.migrate(database) }
        #expect(try DatabaseMigrator.appliedSteps(database) == ["a"])
        #expect(try !database.tableExists("half"))
        try Self.counting(["a", "b"]).migrate(database)
        #expect(try database.query("SELECT step FROM runs ORDER BY rowid").map { $0.text(0) } == ["a", "b"])
    }

    /// The store's own steps (`StoreLayout.migrator`): a file stopped after any one of them (as
    /// an earlier release left it) opens with the rest run, and ends with the layout of a new store, table by table and column by
    /// column, every index and trigger; the store then saves, queries and searches. What it
    /// catches: a step that cannot run on a file the steps before it left (one that reads a table
    /// only a later step makes), and a layout an old file reaches by another road than a new one
    /// (an opening that repairs or rebuilds differently from the steps).
    @Test func aStoreStoppedAtAnyStepOpensWithTheLayoutOfANewOne() throws {
        let fresh = Self.file()
        defer { try? FileManager.default.removeItem(at: fresh) }
        _ = try SyncStore(url: fresh)
        let expected = try Self.layout(of: fresh)
        for step in StoreLayout.migrator.steps.map(\.name) {
            let url = Self.file()
            defer { try? FileManager.default.removeItem(at: url) }
            do {
                let database = try SQLiteDatabase(.file(url))
                try StoreLayout.migrator.migrate(database, upTo: step)
            }
            let store = try SyncStore(url: url)
            #expect(try Self.layout(of: url) == expected, "stopped after \(step)")
            try store.save(ListItem(recordName: "n", text: "words to find", assignee: .unset))
            #expect(try store.fetch(Query<ListItem>().matching("find")).map(\.recordName) == ["n"], "stopped after \(step)")
        }
    }

    /// Every table's columns (name, type, constraints), every index's and trigger's SQL, and the
    /// steps recorded: what a store file's layout is.
    static func layout(of url: URL) throws -> [String] {
        let database = try SQLiteDatabase(.file(url))
        var layout: [String] = []
        for table in try database.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map({ $0.text(0) }) {
            let columns = try database.query("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid", [.text(table)])
            layout.append("table \(table): " + columns.map { "\($0.text(0)) \($0.text(1)) \($0.integer(2)) \($0.optionalText(3) ?? "-") \($0.integer(4))" }.joined(separator: ", "))
        }
        for row in try database.query("SELECT type, name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') ORDER BY name") {
            layout.append("\(row.text(0)) \(row.text(1)): \(row.optionalText(2) ?? "automatic")")
        }
        layout.append("steps: " + (try DatabaseMigrator.appliedSteps(database)).joined(separator: ", "))
        return layout
    }

    @Test func aNewStoreRecordsEveryStepOfItsLayoutInOrder() throws {
        let url = Self.file()
        defer { try? FileManager.default.removeItem(at: url) }
        _ = try SyncStore(url: url)
        let recorded = try DatabaseMigrator.appliedSteps(SQLiteDatabase(.file(url)))
        #expect(recorded == StoreLayout.migrator.steps.map(\.name))
    }

    /// A store whose file records a step this version does not know is refused with
    /// `newerVersion`, naming the file and the step, and nothing is written: a step it lacks is not
    /// run either. Breaking it (no check of the recorded steps): the store opens, and the dropped
    /// table comes back.
    @Test func aStoreANewerVersionWroteIsRefusedAndLeftAsItIs() throws {
        let url = Self.file()
        defer { try? FileManager.default.removeItem(at: url) }
        try SyncStore(url: url).save(Note(recordName: "n", title: "kept"))
        do {
            let database = try SQLiteDatabase(.file(url))
            try database.execute("""
                INSERT INTO syncgen_migrations (name) VALUES ('aLaterVersionsStep');
                DELETE FROM syncgen_migrations WHERE name = 'catalogs'; DROP TABLE catalog_received;
                """)
        }
        #expect {
            try SyncStore(url: url)
        } throws: { error in
            guard let error = error as? LocalStoreError else { return false }
            return error.reason == .newerVersion && error.message.contains(url.path) && error.message.contains("aLaterVersionsStep")
        }
        let database = try SQLiteDatabase(.file(url))
        #expect(try !database.tableExists("catalog_received"))
        #expect(try DatabaseMigrator.appliedSteps(database).last == "aLaterVersionsStep")
        #expect(try database.query("SELECT title FROM model_Note").map { $0.text(0) } == ["kept"])
    }

    @Test func aLocalCloudFileANewerVersionWroteIsRefused() throws {
        let url = Self.file()
        defer { try? FileManager.default.removeItem(at: url) }
        _ = try LocalCloud.file(at: url, clock: ManualClock())
        try SQLiteDatabase(.file(url)).execute("INSERT INTO syncgen_migrations (name) VALUES ('aLaterVersionsStep')")
        #expect {
            try LocalCloud.file(at: url, clock: ManualClock())
        } throws: { error in
            "\(error)".contains(url.path) && "\(error)".contains("aLaterVersionsStep") && "\(error)".contains("newer version")
        }
        #expect(try DatabaseMigrator.appliedSteps(SQLiteDatabase(.file(url))) == LocalCloudStore.migrator.steps.map(\.name) + ["aLaterVersionsStep"])
    }

    /// A LocalCloud file given where a store is asked for, or a store where a LocalCloud file
    /// is, says what it is (not "written by a newer version": none of its steps is the other
    /// layout's), and is left as it is. Breaking it (no `otherFile` in the migrator) says
    /// "newer version", and the user looks for an update that does not exist.
    @Test func theOtherKindOfFileIsNamedAndLeftAlone() throws {
        let (cloud, store) = (Self.file(), Self.file())
        defer { for url in [cloud, store] { try? FileManager.default.removeItem(at: url) } }
        _ = try LocalCloud.file(at: cloud, clock: ManualClock())
        _ = try SyncStore(url: store)
        #expect {
            try SyncStore(url: cloud)
        } throws: { error in
            guard let error = error as? LocalStoreError else { return false }
            return error.reason == .other && error.message.contains(cloud.path) && error.message.contains("another file syncgen writes")
        }
        #expect {
            try LocalCloud.file(at: store, clock: ManualClock())
        } throws: { error in
            "\(error)".contains(store.path) && "\(error)".contains("another file syncgen writes")
        }
        #expect(try DatabaseMigrator.appliedSteps(SQLiteDatabase(.file(cloud))) == LocalCloudStore.migrator.steps.map(\.name))
        #expect(try DatabaseMigrator.appliedSteps(SQLiteDatabase(.file(store))) == StoreLayout.migrator.steps.map(\.name))
    }
}
