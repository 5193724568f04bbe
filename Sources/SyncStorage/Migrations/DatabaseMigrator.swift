/// How a SQLite file reaches the layout this version reads: named steps, run in order, each
/// recorded in the file (`syncgen_migrations`) in the transaction that runs it, so a step runs
/// once per file, whatever version made the file (in the manner of GRDB's ``DatabaseMigrator``).
///
/// A new file and an old one go through the same steps: the old one only runs fewer of them. A
/// file that records a step this version does not know was written by a newer version, and is
/// refused before anything is written (`MigrationError.newerFile`): an older reader must never
/// write over a layout it cannot see.
///
/// A step is never changed or renamed once released; a change of layout is a new step at the end
/// of its list. Steps of different lists (the local store's topics) never depend on each other.
package struct DatabaseMigrator: Sendable {
    /// One change of layout.
    package struct Step: Sendable {
        /// What the file records: unique among the migrator's steps, never reused.
        package let name: String
        package let apply: @Sendable (SQLiteDatabase) throws -> Void

        package init(_ name: String, _ apply: @escaping @Sendable (SQLiteDatabase) throws -> Void) {
            self.name = name
            self.apply = apply
        }

        /// A step that runs SQL.
        package init(_ name: String, sql: String) {
            self.init(name) { try $0.execute(sql) }
        }
    }

    /// What the file is, for errors: "the local store", "the LocalCloud file".
    package let fileKind: String
    package let steps: [Step]

    package init(fileKind: String, steps: [Step]) {
        let names = steps.map(\.name)
        precondition(Set(names).count == names.count, "\(fileKind): a migration step name is used twice: \(names)")
        self.fileKind = fileKind
        self.steps = steps
    }

    /// Runs the steps the file has not run yet, in order, up to and including `last` (every step
    /// when nil: a test opens a file at an old step this way, then runs the next). Each step runs
    /// in a transaction of its own, with its record: a step that fails leaves the file as the
    /// steps before it made it, and the next opening runs it again. Called outside a transaction
    /// (inside one, the steps share it).
    package func migrate(_ database: SQLiteDatabase, upTo last: String? = nil) throws {
        let wanted: ArraySlice<Step>
        if let last {
            guard let end = steps.firstIndex(where: { $0.name == last }) else {
                preconditionFailure("\(fileKind): no migration step is named '\(last)'")
            }
            wanted = steps[...end]
        } else {
            wanted = steps[...]
        }
        let done = try database.transaction { () throws -> Set<String> in
            let done = try stepsDone(database)
            try database.execute("CREATE TABLE IF NOT EXISTS syncgen_migrations (position INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
            return done
        }
        for step in wanted where !done.contains(step.name) {
            try database.transaction {
                // Another process opening the same file may have run the step since `done` was
                // read (two devices of a LocalCloud file starting at once): looked at again under
                // this transaction's write lock, a step done is not run twice. (Seen in CI's soak:
                // "UNIQUE constraint failed: syncgen_migrations.name".)
                guard try !stepsDone(database).contains(step.name) else { return }
                try step.apply(database)
                try database.query("INSERT INTO syncgen_migrations (name) VALUES (?)", [.text(step.name)])
            }
        }
    }

    /// Checks, writing nothing, that the file has the layout this version reads: refuses a newer
    /// file (`newerFile`) and one that has steps to run yet (`olderFile`).
    package func check(_ database: SQLiteDatabase) throws {
        let done = try stepsDone(database)
        let missing = steps.map(\.name).filter { !done.contains($0) }
        guard missing.isEmpty else { throw MigrationError.olderFile(fileKind: fileKind, missingSteps: missing) }
    }

    /// The steps the file has run, all of them known to this version: a file that records one it
    /// does not know was written by a newer version (`newerFile`), and one that records steps
    /// but none of this layout's is another kind of file syncgen writes (`otherFile`).
    private func stepsDone(_ database: SQLiteDatabase) throws -> Set<String> {
        let applied = try Self.appliedSteps(database)
        let known = Set(steps.map(\.name))
        let unknown = applied.filter { !known.contains($0) }
        if let first = applied.first, unknown.count == applied.count {
            throw MigrationError.otherFile(fileKind: fileKind, firstStep: first)
        }
        guard unknown.isEmpty else { throw MigrationError.newerFile(fileKind: fileKind, unknownSteps: unknown) }
        return Set(applied)
    }

    /// The steps the file records, in the order they ran (none for a new file, or one made before
    /// steps were recorded).
    package static func appliedSteps(_ database: SQLiteDatabase) throws -> [String] {
        guard try database.tableExists("syncgen_migrations") else { return [] }
        return try database.query("SELECT name FROM syncgen_migrations ORDER BY position").map { $0.text(0) }
    }
}

/// Why a file was not opened.
package enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file records steps this version does not know: a newer version wrote it.
    case newerFile(fileKind: String, unknownSteps: [String])
    /// The file lacks steps this version runs (an older version wrote it, and it is only read
    /// here).
    case olderFile(fileKind: String, missingSteps: [String])
    /// The file is another kind syncgen writes (a LocalCloud file where a store was asked for):
    /// its layout has steps, none of them this one's; `firstStep` names its kind.
    case otherFile(fileKind: String, firstStep: String)

    package var description: String {
        switch self {
        case .newerFile(let fileKind, let unknownSteps):
            "\(fileKind) was written by a newer version of syncgen (its layout has steps this version does not know: \(unknownSteps.joined(separator: ", "))); it is left as it is: open it with that version or a later one"
        case .olderFile(let fileKind, let missingSteps):
            "\(fileKind) was written by an older version of syncgen (its layout lacks \(missingSteps.joined(separator: ", "))), and is only read here: open it once with the app, which brings it up to date, then read it again"
        case .otherFile(let fileKind, let firstStep):
            "not \(fileKind), but another file syncgen writes (its layout starts with the step '\(firstStep)'); it is left as it is"
        }
    }
}

extension SQLiteDatabase {
    /// Whether the file has a table of this name.
    package func tableExists(_ name: String) throws -> Bool {
        try !query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]).isEmpty
    }

    /// Adds a column to a table unless it has one of that name: for the steps that meet files
    /// made before steps were recorded, whose layout they cannot know.
    package func addColumnIfMissing(_ column: String, _ definition: String, to table: String) throws {
        guard try !query("SELECT name FROM pragma_table_info(?)", [.text(table)]).contains(where: { $0.text(0) == column }) else { return }
        try execute("ALTER TABLE \(table) ADD COLUMN \(column) \(definition)")
    }
}
