import Foundation
@_spi(SyncgenGenerated) import SyncCore
import Testing
@testable import SyncLocalStore
@testable import SyncLocalCloud
import SyncRuntime

/// `update(_:changing:)`: an edit of some fields writes their columns alone, and is a change like
/// any save (history, observers, the push).
@Suite("Local store: updates of some fields")
struct StoreUpdateTests {
    /// Only the named columns are written: a field the update does not name keeps the stored
    /// value, even where the model handed in holds another. Breaking it (every column written):
    /// the body becomes the handed-in one.
    @Test func anUpdateWritesTheNamedFieldsAlone() throws {
        let store = try SyncStore(url: nil)
        try store.save(Note(recordName: "n", title: "old", body: "kept", pinned: false))
        try store.update(Note(recordName: "n", title: "new", body: "not written", pinned: true), changing: \.title, \.pinned)
        let note = try #require(try store.fetch(Note.self, recordName: "n"))
        #expect(note.title == "new" && note.pinned && note.body == "kept")
        // The index of a named field follows it.
        #expect(try store.fetch(Query<Note>().filter(\.title == "new")).map(\.recordName) == ["n"])
        #expect(try store.fetch(Query<Note>().filter(\.title == "old")).isEmpty)
    }

    /// An update is a change of the app: waiting to upload, heard by observers.
    @Test func anUpdateIsAChangeLikeASave() async throws {
        let store = try SyncStore(url: nil)
        try store.save(Note(recordName: "n", title: "old"))
        try store.sqliteTransaction { try $0.commitHistoryToken(try $0.unpushedChanges(limit: nil).readThrough) }
        #expect(try !store.hasUnpushedChanges())
        var answers = store.observe(Note.self).makeAsyncIterator()
        #expect(try await answers.next()?.map(\.title) == ["old"])
        try store.update(Note(recordName: "n", title: "new"), changing: \.title)
        #expect(try store.hasUnpushedChanges())
        #expect(try await answers.next()?.map(\.title) == ["new"])
    }

    /// A model the store does not hold as given is saved whole: one not stored, one under
    /// another parent or owner. Nothing handed in is lost.
    @Test func aModelNotStoredAsGivenIsSavedWhole() throws {
        let store = try SyncStore(url: nil)
        try store.update(Note(recordName: "new", title: "t", body: "b"), changing: \.title)
        #expect(try store.fetch(Note.self, recordName: "new")?.body == "b")
        try store.save(Note(recordName: "n", title: "t", body: "b"))
        try store.update(Note(recordName: "n", ownerName: "_other", title: "t2", body: "b2"), changing: \.title)
        let moved = try #require(try store.fetch(Note.self, recordName: "n"))
        #expect(moved.ownerName == "_other" && moved.body == "b2")
    }

    /// A key path that is not a field of the schema is refused, naming it; nothing is written.
    @Test func aKeyPathThatIsNoFieldIsRefused() throws {
        let store = try SyncStore(url: nil)
        try store.save(Note(recordName: "n", title: "t"))
        #expect(throws: LocalStoreError.self) { try store.update(Note(recordName: "n", title: "x"), changing: \.recordName) }
        #expect(try store.fetch(Note.self, recordName: "n")?.title == "t")
    }

    /// An update is checked as a save is: a natural key changed to another record's is refused
    /// when the update names it.
    @Test func anUpdateOfANaturalKeyIsChecked() throws {
        let store = try SyncStore(url: nil)
        try store.save([SharedList(recordName: "a", title: "Groceries"), SharedList(recordName: "b", title: "Books")])
        #expect(throws: DuplicateNaturalKey.self) { try store.update(SharedList(recordName: "b", title: "Groceries"), changing: \.title) }
        try store.update(SharedList(recordName: "b", title: "Films", color: "red"), changing: \.title)
        #expect(try store.fetch(SharedList.self, recordName: "b").map { [$0.title, $0.color] } == ["Films", nil])
    }

    /// The edit reaches the other device through the cloud, with the fields it did not name as
    /// they were.
    @Test func anUpdateIsPushed() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save(Note(recordName: "n", title: "one", body: "body"))
        await world.syncAll()
        try phone.store.update(Note(recordName: "n", title: "ONE", body: "ignored"), changing: \.title)
        await world.syncAll()
        let note = try #require(try laptop.store.fetch(Note.self, recordName: "n"))
        #expect(note.title == "ONE" && note.body == "body")
    }
}
