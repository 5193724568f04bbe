import Foundation

/// Read-only connections to one database file in write-ahead-log mode, beside the connection
/// that writes it: a read runs on a reader of its own in a transaction of its own, and sees the
/// file as the last commit left it, whatever the writer holds meanwhile (a reader never waits for
/// a writer, nor a writer for a reader, in WAL mode). Readers are opened as reads need them, up to
/// `capacity`; a read beyond that waits for one to come back.
package final class SQLiteReaders: @unchecked Sendable {
    private let location: URL
    private let capacity: Int
    /// Guards `idle` and `opened`, and wakes a read that waits for a reader.
    private let condition = NSCondition()
    private var idle: [SQLiteDatabase] = []
    private var opened = 0
    /// Set while `excludingReads` runs: no read starts.
    private var excluded = false
    /// Told each time a caller starts to wait (tests: what waits, and when).
    private let onWait: (@Sendable (Waiter) -> Void)?

    /// Who waits: a read for a reader, or `excludingReads` for the reads in flight.
    package enum Waiter: Sendable {
        case read, exclusion
    }

    /// Readers of the file at `location`, which a writer has made and put in WAL mode.
    package init(_ location: URL, capacity: Int = 4, onWait: (@Sendable (Waiter) -> Void)? = nil) {
        precondition(capacity > 0, "a store reads through one reader at least")
        self.location = location
        self.capacity = capacity
        self.onWait = onWait
    }

    /// Runs `body` in a read transaction of a reader: one snapshot of the file for all it reads.
    package func read<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        let reader = try take()
        defer { give(reader) }
        return try reader.transaction { try body(reader) }
    }

    /// Runs `body` with no read running, and none starting until it returns: for a change a read
    /// in flight must not straddle (dropping columns a reader's statement names).
    package func excludingReads<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        while excluded { wait(.exclusion) }
        excluded = true
        while idle.count < opened { wait(.exclusion) }
        condition.unlock()
        defer {
            condition.lock()
            excluded = false
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }

    /// An idle reader, a new one if none is idle and there is room for it, or the first to come
    /// back.
    private func take() throws -> SQLiteDatabase {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if !excluded {
                if let reader = idle.popLast() { return reader }
                if opened < capacity {
                    opened += 1
                    do {
                        return try SQLiteDatabase(.file(location), readOnly: true)
                    } catch {
                        opened -= 1
                        throw error
                    }
                }
            }
            wait(.read)
        }
    }

    /// Waits for the condition (its lock held), telling `onWait` first.
    private func wait(_ waiter: Waiter) {
        onWait?(waiter)
        condition.wait()
    }

    private func give(_ reader: SQLiteDatabase) {
        condition.lock()
        idle.append(reader)
        // Both a read waiting for a reader and `excludingReads` waiting for all of them.
        condition.broadcast()
        condition.unlock()
    }
}
