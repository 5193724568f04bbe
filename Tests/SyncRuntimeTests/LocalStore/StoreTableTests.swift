import Foundation
@_spi(SyncgenGenerated) import SyncCore
import Testing
import SyncLocalCloud
@testable import SyncLocalStore
@testable import SyncStorage
import SyncRuntime

/// The store's shape comes from the schema: a table per model with a typed column per field,
/// readable with any SQLite tool, grown when the schema adds a field, never shrunk; and a store of
/// the layout before (every model in one table, fields in a blob) opens with everything it held.
@Suite("Store: a table per model")
struct StoreTableTests {
    static func file() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString).sqlite")
    }

    /// The owner index holds only other owners' rows (a shared zone's): the user's own are most of
    /// the table, and an index of one value for them took a tenth of the file. A query for
    /// another owner says the index's condition, so SQLite reads the index (without it, SQLite
    /// cannot: the bare query's plan scans); one for the user's own rows scans; both answer as
    /// before. The user's own rows keep '' as their owner (no bytes of the row) and read back
    /// as the user's, as do the server versions of the user's zone and records (`StoredOwner`).
    /// A store an earlier release made has its own rows' owner and its server versions' user
    /// emptied, and its full index replaced, when it opens.
    @Test func theOwnerIndexHoldsOnlyOtherOwnersRows() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("owners-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: url) }
        let store = try SyncStore(url: url)
        try store.save([Note(recordName: "mine-1"), Note(recordName: "mine-2")])
        try store.sqliteTransaction { transaction in
            try transaction.writer(.sync).save(Note(recordName: "bobs", ownerName: "_bob"))
        }
        try store.sqliteTransaction { transaction in
            #expect(try transaction.recordNames(type: Note.self, ownerName: "_bob") == ["bobs"])
            #expect(try transaction.recordNames(type: Note.self, ownerName: SyncConstants.currentUserOwnerName) == ["mine-1", "mine-2"])
            let index = try transaction.database.query("SELECT sql FROM sqlite_master WHERE name = 'model_Note_by_owner'").first?.text(0) ?? ""
            #expect(index.contains("WHERE _owner != ''"), "\(index)")
            // The user's own rows keep no owner's name, and read back as the user's.
            #expect(try transaction.database.query("SELECT _name, _owner FROM model_Note ORDER BY _name").map { "\($0.text(0))=\($0.text(1))" } == ["bobs=_bob", "mine-1=", "mine-2="])
            let plan = try transaction.database.query(
                "EXPLAIN QUERY PLAN SELECT _name FROM model_Note WHERE _owner = ? AND \(ModelTables.othersOnly) ORDER BY _name", [.text("_bob")]
            ).map { $0.text(3) }.joined(separator: "; ")
            #expect(plan.contains("model_Note_by_owner"), "\(plan)")
            let bare = try transaction.database.query(
                "EXPLAIN QUERY PLAN SELECT _name FROM model_Note WHERE _owner = ? ORDER BY _name", [.text("_bob")]
            ).map { $0.text(3) }.joined(separator: "; ")
            #expect(!bare.contains("model_Note_by_owner"), "\(bare)")
        }
        let earlier = FileManager.default.temporaryDirectory.appendingPathComponent("owners-earlier-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: earlier) }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("store.sqlite"), to: earlier)
        try SyncStore(url: earlier).sqliteTransaction { transaction in
            let index = try transaction.database.query("SELECT sql FROM sqlite_master WHERE name = 'model_Data_by_owner'").first?.text(0) ?? ""
            #expect(index.contains("WHERE _owner != ''"), "\(index)")
            let owners = try transaction.database.query("SELECT DISTINCT _owner FROM model_Data").map { $0.text(0) }
            #expect(owners == [""], "the earlier store's own rows keep no owner's name: \(owners)")
            let version = try transaction.database.query("SELECT zone_owner || '|' || creator || '|' || modifier FROM sync_records").map { $0.text(0) }
            #expect(version == ["||"], "nor its server versions the user's name: \(version)")
            // Read back as the user's.
            let record = try #require(try transaction.serverRecord(RecordID(recordName: "data-1", zoneID: ZoneID(zoneName: SyncConstants.defaultSyncZoneName, ownerName: SyncConstants.currentUserOwnerName))))
            #expect(record.creatorUserRecordName == SyncConstants.currentUserOwnerName && record.lastModifiedUserRecordName == SyncConstants.currentUserOwnerName)
        }
    }

    /// Plain SQL sees each field in its own column, typed: text, integers, reals, dates as seconds
    /// since 2001, references as the target's name, lists in the store's binary form; the parent
    /// and reference columns are indexed. Breaking it: keeping the fields in one blob, and the
    /// `SELECT` finds no `text` column.
    @Test func eachFieldIsAColumnAnyToolCanRead() throws {
        let url = Self.file()
        defer { try? FileManager.default.removeItem(at: url) }
        let store = try SyncStore(url: url)
        try store.save(ListItem(recordName: "milk", parent: RecordReference(recordName: "groceries"), text: "Milk", done: true, quantity: 1.5,
                                assignee: RecordReference(recordName: "bob"), tags: ["dairy"], note: nil))
        try store.save(Note(recordName: "n", title: "Hello", createdAt: Date(timeIntervalSinceReferenceDate: 42), draftCursor: 7))
        let database = try SQLiteDatabase(.file(url))
        let item = try #require(try database.query("SELECT _name, _parent, text, done, quantity, assignee, note, typeof(tags) FROM model_ListItem").first)
        #expect(item.text(0) == "milk" && item.text(1) == "groceries" && item.text(2) == "Milk" && item.integer(3) == 1)
        #expect(item.real(4) == 1.5 && item.text(5) == "bob" && item.isNull(6) && item.text(7) == "blob")
        let note = try #require(try database.query("SELECT title, createdAt, draftCursor, typeof(createdAt) FROM model_Note").first)
        #expect(note.text(0) == "Hello" && note.real(1) == 42 && note.integer(2) == 7 && note.text(3) == "real")
        let indexes = Set(try database.query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'model_ListItem'").map { $0.text(0) })
        #expect(indexes.isSuperset(of: ["model_ListItem_by_parent", "model_ListItem_by_owner", "model_ListItem_by_assignee"]))
        // The schema's `index:` (Note's title and createdAt) is an index here too, and a query on
        // the field uses it.
        let noteIndexes = Set(try database.query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'model_Note'").map { $0.text(0) })
        #expect(noteIndexes.isSuperset(of: ["model_Note_by_title", "model_Note_by_createdAt"]))
        let table = try store.sqliteTransaction { try $0.changes.tables.table(for: Note.self) }
        let sql = try #require(QuerySQL(Query<Note>().filter(\.title == "Hello"), table: table, tables: { _ in nil }))
        let plan = try database.query("EXPLAIN QUERY PLAN SELECT _name FROM model_Note \(sql.filter) \(sql.order) \(sql.page)", sql.arguments).map { $0.text(3) }
        #expect(plan.contains { $0.contains("model_Note_by_title") }, "\(plan)")
    }

    /// A row of a model whose fields are all plain values is read straight from its columns into
    /// the model (no stored record in between): each field from its own column, an optional left
    /// empty as saved, by name, by query and in full; a value of another type in a column is an
    /// error naming the record and the field, as it is through the stored fields. `b`, saved
    /// right after `a` by the same statement, leaves empty what `a` filled: a parameter a write
    /// leaves unset is NULL, never the last row's value. Breaking it (reading each field from the
    /// column after its own, setting aside a value of the wrong type, or `SQLiteDatabase.run` no
    /// longer setting the unset parameters to NULL, when `b` reads back `a`'s color) fails these.
    @Test func plainModelsAreReadStraightFromTheirColumns() throws {
        let url = Self.file()
        defer { try? FileManager.default.removeItem(at: url) }
        let store = try SyncStore(url: url)
        #expect(SharedList.storesPlainValues && ListItem.storesPlainValues && !Note.storesPlainValues)
        let lists = [
            SharedList(recordName: "a", title: "Groceries", color: "green", pin: "1234", labels: ["food", "weekly"]),
            SharedList(recordName: "b", title: "Hardware", color: nil, pin: nil, labels: []),
        ]
        try store.save(lists)
        #expect(try store.fetch(SharedList.self, recordName: "a") == lists[0])
        #expect(try store.fetch(SharedList.self, recordName: "b") == lists[1])
        #expect(try store.fetch(Query<SharedList>().sorted(by: \.title)) == lists)
        #expect(try store.fetchAll(SharedList.self) == lists)
        // The catalog says `color` holds integers (as a file of another schema would): a store
        // opened on it reads an integer where the model has a string.
        let database = try SQLiteDatabase(.file(url))
        try database.execute("""
            UPDATE model_columns SET kind = 'integer' WHERE type = 'SharedList' AND name = 'color';
            UPDATE model_SharedList SET color = 7 WHERE _name = 'b';
            """)
        let reopened = try SyncStore(url: url)
        #expect {
            try reopened.fetch(SharedList.self, recordName: "b")
        } throws: { error in
            let text = "\(error)"
            return text.contains("'b'") && text.contains("'color'") && text.contains("expected string")
        }
    }

    /// A child's parent is kept in `_parent` alone, and read back from it: nothing of a child
    /// goes to `_extra`, so its rows are read straight from their columns and a one-field update
    /// rewrites one column (both need `_extra` empty). A row written before, with the parent in
    /// `_extra` too, reads the same and loses the copy when next written; a child without a
    /// parent has none after a read. Breaking it: writing the parent to `_extra` again leaves it
    /// filled; not reading `_parent` back (or selecting NULL in its place) loses "milk"'s parent.
    @Test func aChildsParentIsKeptInItsColumnAlone() throws {
        let url = Self.file()
        defer { try? FileManager.default.removeItem(at: url) }
        let store = try SyncStore(url: url)
        var milk = ListItem(recordName: "milk", parent: RecordReference(recordName: "groceries"), text: "Milk", quantity: 2,
                            assignee: RecordReference(recordName: "bob"), tags: ["a"])
        let orphan = ListItem(recordName: "orphan", parent: nil, text: "Loose", assignee: .unset)
        try store.save([milk, orphan])
        let database = try SQLiteDatabase(.file(url))
        let extras = { try database.query("SELECT _name, _parent, _extra IS NULL FROM model_ListItem ORDER BY _name").map { "\($0.text(0)) \($0.optionalText(1) ?? "-") \($0.integer(2))" } }
        #expect(try extras() == ["milk groceries 1", "orphan - 1"])
        #expect(try store.fetch(ListItem.self, recordName: "milk") == milk)
        #expect(try store.fetch(ListItem.self, recordName: "orphan") == orphan)
        #expect(try store.fetch(Query<ListItem>().sorted(by: \.text)) == [orphan, milk].sorted { $0.text < $1.text })
        #expect(try store.fetchAll(ListItem.self) == [milk, orphan])

        // A row as a store before kept it: the parent in `_extra` as well as `_parent`.
        var legacy = RecordFields()
        legacy.append(RecordFieldNames.storedParent, .reference(SyncReference(recordName: "groceries", action: .none)))
        try database.query("UPDATE model_ListItem SET _extra = ? WHERE _name = 'milk'", [.blob(FieldsCodec.encode(legacy))])
        let reopened = try SyncStore(url: url)
        #expect(try reopened.fetch(ListItem.self, recordName: "milk") == milk)
        #expect(try reopened.fetch(Query<ListItem>().filter(.isChild(of: "groceries"))) == [milk])
        milk.done = true
        try reopened.update(milk, changing: \.done)
        #expect(try extras() == ["milk groceries 1", "orphan - 1"], "the copy in _extra goes with the next write")
        #expect(try reopened.fetch(ListItem.self, recordName: "milk") == milk)
    }

    /// The push reads the records its saves upload a type at a time (`uploadRecords`, one
    /// statement for many names): the same records, edit times included, as one name at a time,
    /// for plain models and for models with a parent; none for a name not stored, one for a name
    /// listed twice. Breaking it (the names' statement selecting every row, or keying the
    /// records by anything but their name) fails it.
    @Test func manyUploadRecordsReadAtOnceAreThoseReadOneByOne() throws {
        let url = Self.file()
        defer { try? FileManager.default.removeItem(at: url) }
        let store = try SyncStore(url: url)
        try store.save([
            SharedList(recordName: "a", title: "Groceries", color: "green"), SharedList(recordName: "b", title: "Hardware"),
            SharedList(recordName: "c", title: "Not asked for"),
        ])
        try store.save([
            ListItem(recordName: "milk", parent: RecordReference(recordName: "a"), text: "Milk", quantity: 2, assignee: .unset),
            ListItem(recordName: "nails", parent: RecordReference(recordName: "b"), text: "Nails", assignee: .unset, tags: ["small"]),
        ])
        try store.sqliteTransaction { store in
            let lists = try store.uploadRecords(type: SharedList.self, recordNames: ["a", "b", "gone", "a"], routes: ZoneRoutes(syncZoneName: "Zone"))
            #expect(Set(lists.keys) == ["a", "b"])
            for name in ["a", "b"] {
                #expect(lists[name] == (try store.uploadRecord(type: SharedList.self, recordName: name, routes: ZoneRoutes(syncZoneName: "Zone"))))
            }
            let items = try store.uploadRecords(type: ListItem.self, recordNames: ["nails", "milk"], routes: ZoneRoutes(syncZoneName: "Zone"))
            #expect(Set(items.keys) == ["milk", "nails"])
            for name in ["milk", "nails"] {
                #expect(items[name] == (try store.uploadRecord(type: ListItem.self, recordName: name, routes: ZoneRoutes(syncZoneName: "Zone"))))
            }
            #expect(items["milk"]?.parentRecordName == "a" && items["milk"]?.id.zoneID.zoneName == "Zone")
            #expect(try store.uploadRecords(type: ListItem.self, recordNames: [], routes: ZoneRoutes(syncZoneName: "Zone")).isEmpty)
        }
    }

    /// A field the schema adds becomes a column holding the field's default in the rows already
    /// there; a column of a field the schema dropped keeps its values through later saves.
    /// Breaking it: `INSERT OR REPLACE` rewrites the whole row, and the dropped field's value goes.
    @Test func addedFieldsGetTheirDefaultAndDroppedOnesStay() throws {
        let url = Self.file()
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            let store = try SyncStore(url: url)
            try store.save(Note(recordName: "n", title: "Hello", body: "kept"))
        }
        do {
            // An older schema: Note without `pinned`, and with a field `mood` this one dropped.
            let database = try SQLiteDatabase(.file(url))
            try database.execute("""
                ALTER TABLE model_Note DROP COLUMN pinned; DELETE FROM model_columns WHERE type = 'Note' AND name = 'pinned';
                ALTER TABLE model_Note ADD COLUMN mood TEXT;
                INSERT INTO model_columns (type, name, kind, position) VALUES ('Note', 'mood', 'text', 99);
                UPDATE model_Note SET mood = 'happy';
                """)
        }
        let store = try SyncStore(url: url)
        var note = try #require(try store.fetch(Note.self, recordName: "n"))
        #expect(note.title == "Hello" && note.body == "kept" && note.pinned == false)
        note.title = "Edited"
        try store.save(note)
        let database = try SQLiteDatabase(.file(url))
        let row = try #require(try database.query("SELECT title, pinned, mood FROM model_Note").first)
        #expect(row.text(0) == "Edited" && row.integer(1) == 0 && row.text(2) == "happy")

        // Until the app says it no longer needs them.
        #expect(try store.discardDroppedFields(of: Note.self) == ["mood"])
        #expect(try database.query("SELECT name FROM pragma_table_info('model_Note') WHERE name = 'mood'").isEmpty)
        note.body = "after"
        try store.save(note)
        #expect(try store.fetch(Note.self, recordName: "n")?.body == "after")
        #expect(try store.discardDroppedFields(of: Note.self) == [])
    }

    /// A damaged store file, or LocalCloud's, is refused naming the file: an app holds several
    /// and must tell which one failed. Breaking it: SQLite's message alone ("file is not a
    /// database").
    @Test func aDamagedFileIsNamedInItsError() throws {
        let url = Self.file()
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(repeating: 0x5A, count: 8192).write(to: url)
        #expect {
            _ = try SyncStore(url: url)
        } throws: { error in
            guard let error = error as? LocalStoreError else { return false }
            return error.reason == .corrupt && error.message.contains(url.path)
        }
        #expect {
            _ = try LocalCloud.file(at: url)
        } throws: { error in
            "\(error)".contains(url.path) && "\(error)".contains("not a database")
        }
    }

    /// A store of the layout before opens with every record intact: the models of this app
    /// typed, a type this app no longer has kept as it was, and both parked and restored with an
    /// account; every row's parent in its column, even one the old row kept in its fields only.
    /// Breaking it: decoding the old rows with the current schema, and the unknown type's
    /// record is lost; taking the parent from the old column alone, and "bread" is no child of
    /// "groceries" to queries and cascades.
    @Test func aStoreOfTheLayoutBeforeOpensWithEverythingItHeld() throws {
        let url = Self.file()
        defer { try? FileManager.default.removeItem(at: url) }
        let item = ListItem(recordName: "milk", parent: RecordReference(recordName: "groceries"), text: "Milk", done: false, quantity: 2,
                            assignee: RecordReference(recordName: "bob"), tags: ["a", "b"], note: "oat")
        let note = Note(recordName: "n", title: "Hello", createdAt: Date(timeIntervalSinceReferenceDate: 0.1), draftCursor: 3)
        do {
            _ = try SyncStore(url: url)
            let database = try SQLiteDatabase(.file(url))
            try database.execute("""
                CREATE TABLE models (type TEXT NOT NULL, name TEXT NOT NULL, owner TEXT NOT NULL, parent TEXT, fields BLOB NOT NULL,
                    modified REAL NOT NULL, PRIMARY KEY (type, name));
                DROP TABLE model_tables; DROP TABLE model_columns; DROP TABLE syncgen_migrations;
                """)
            let legacy: RecordFields = ["shape": .string("round"), "size": .int64(3)]
            // "bread" kept its parent in its fields only (its row's column empty).
            let bread = ListItem(recordName: "bread", parent: RecordReference(recordName: "groceries"), text: "Bread", assignee: .unset)
            for (type, name, parent, fields) in [
                ("ListItem", "milk", "groceries" as String?, item.encodeStoredFields()), ("Note", "n", nil, note.encodeStoredFields()),
                ("Retired", "r", nil, legacy), ("ListItem", "bread", nil, bread.encodeStoredFields()),
            ] {
                try database.query("INSERT INTO models VALUES (?, ?, ?, ?, ?, ?)",
                    [.text(type), .text(name), .text(SyncConstants.currentUserOwnerName), parent.map(SQLiteValue.text) ?? .null, .blob(FieldsCodec.encode(fields)), .real(1)])
            }
            try database.query("INSERT INTO history (type, name, kind, author) VALUES ('Retired', 'r', 0, 'app')")
        }
        let store = try SyncStore(url: url)
        #expect(try store.fetch(ListItem.self, recordName: "milk") == item)
        #expect(try store.fetch(Note.self, recordName: "n") == note)
        #expect(try store.isStored(RecordKey("Retired", "r")))
        let database = try SQLiteDatabase(.file(url))
        #expect(try database.query("SELECT text FROM model_ListItem WHERE _name = 'milk'").first?.text(0) == "Milk", "moved into its column")
        #expect(try database.query("SELECT _parent FROM model_ListItem ORDER BY _name").map { $0.optionalText(0) } == ["groceries", "groceries"], "the parent in its column")
        #expect(try store.fetch(Query<ListItem>().filter(.isChild(of: "groceries"))).map(\.recordName) == ["bread", "milk"])
        #expect(try database.query("SELECT name FROM sqlite_master WHERE name = 'models'").isEmpty)

        _ = try store.sqliteTransaction { try $0.parkAndPurge(account: "alice") }
        #expect(try !store.isStored(RecordKey("Retired", "r")))
        _ = try store.sqliteTransaction { try $0.restoreParked(account: "alice") }
        let retired = try #require(try store.sqliteTransaction { try $0.changes.tables.row(recordType: "Retired", recordName: "r") })
        #expect(retired.fields == ["shape": .string("round"), "size": .int64(3)])
    }
}
