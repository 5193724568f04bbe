import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncLocalStore
import SyncPorts
import Testing

/// `BackfilledValues`: what a schema migration's backfill gave a record, by record key, until it
/// is forgotten (pushed, or settled by the cloud's value).
@Suite("Store contract: backfilled values")
struct BackfilledValuesContract {
    /// Two notes backfilled (their titles computed): each holds its own value until forgotten,
    /// and forgetting one record leaves the other's. Breaking it: values kept after they were
    /// forgotten make a later edit of the same text yield to the cloud as if it were computed.
    @Test(arguments: StoreShape.allCases)
    func aBackfilledValueIsKeptUntilForgotten(_ shape: StoreShape) throws {
        let contract = try ContractStore(shape)
        try contract.store.save([Note(recordName: "a", title: ""), Note(recordName: "b", title: "")])
        try contract.store.migrate(toSchemaVersion: 2) { migration in
            try migration.backfill(\Note.title) { note in "Title of \(note.recordName)" }
        }
        let (a, b) = try contract.transaction { (store: any BackfilledValues) in
            (try store.backfilledValues(recordType: Note.recordType, recordName: "a"), try store.backfilledValues(recordType: Note.recordType, recordName: "b"))
        }
        #expect(a == ["title": .string("Title of a")] && b == ["title": .string("Title of b")])
        let (forgotten, kept) = try contract.transaction { (store: any BackfilledValues) in
            try store.forgetBackfilledValues(recordType: Note.recordType, recordNames: ["a"])
            return (try store.backfilledValues(recordType: Note.recordType, recordName: "a"), try store.backfilledValues(recordType: Note.recordType, recordName: "b"))
        }
        #expect(forgotten.isEmpty && kept == ["title": .string("Title of b")])
    }
}
