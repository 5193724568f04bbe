import Foundation
@_spi(SyncgenGenerated) import SyncCore
import Testing
import SyncLocalStore

/// A call of the store inside `store.write { }`'s closure, on the thread the write runs on, is
/// refused with an error that says what to do (write and read through the writer it hands in),
/// in memory and on file alike. It used to wait for ever for the write it is part of (issue 57).
@Suite("Local store: a store call inside a write")
struct StoreNestedCallTests {
    static func stores() throws -> [(String, SyncStore)] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nested-\(UUID().uuidString)").appendingPathComponent("store.sqlite")
        return [("memory", try SyncStore(url: nil)), ("file", try SyncStore(url: url))]
    }

    static func refusal(_ body: () throws -> Void) -> LocalStoreError? {
        do {
            try body()
            return nil
        } catch let error as LocalStoreError {
            return error
        } catch {
            return nil
        }
    }

    /// A nested save, delete, fetch, query and count each throw, naming the writer; the write
    /// they were in rolls back, and the store works on afterwards. Breaking it (no check): the
    /// first nested call never returns.
    @Test func aNestedCallIsRefusedNotAwaited() throws {
        for (kind, store) in try Self.stores() {
            try store.save(Note(recordName: "a", title: "A"))
            let calls: [(String, () throws -> Void)] = [
                ("save", { try store.save(Note(recordName: "b")) }),
                ("delete", { try store.delete(Note.self, recordName: "a") }),
                ("fetch", { _ = try store.fetch(Note.self, recordName: "a") }),
                ("fetchAll", { _ = try store.fetchAll(Note.self) }),
                ("query", { _ = try store.fetch(Query<Note>()) }),
                ("count", { _ = try store.count(Note.self) }),
                ("write", { try store.write { _ in } }),
            ]
            for (name, call) in calls {
                let error = Self.refusal {
                    try store.write { writer in
                        try writer.save(Note(recordName: "c", title: "in the write"))
                        try call()
                    }
                }
                #expect(error?.message.contains("inside store.write") == true, "\(kind), \(name): \(String(describing: error))")
                #expect(try store.fetch(Note.self, recordName: "c") == nil, "\(kind), \(name): the write rolled back")
            }
            try store.write { writer in try writer.save(Note(recordName: "d", title: "D")) }
            #expect(try store.fetchAll(Note.self).map(\.recordName) == ["a", "d"], "\(kind)")
        }
    }
}
