import Foundation
import GeneratedCoverage
import Testing
@testable import SyncLocalStore
import SyncRuntime
import SyncCore

/// Lists of references and references to the model's own type, through the coverage schema's
/// `Household` (`partner`: a household; `members`: households): in SQL, the list read by the
/// store's own function, the model's own table aliased apart.
@Suite("Store: lists of references and references to the same type")
struct StoreListReferenceTests {
    static func store() throws -> SyncStore {
        let store = try SyncStore(url: nil)
        try store.save([
            Household(recordName: "home", name: "Home", partner: RecordReference(recordName: "cabin"), members: [RecordReference(recordName: "cabin")]),
            Household(recordName: "cabin", name: "Cabin"),
            Household(recordName: "flat", name: "Flat", partner: RecordReference(recordName: "home"),
                      members: [RecordReference(recordName: "home"), RecordReference(recordName: "cabin"), RecordReference(recordName: "gone")]),
        ])
        return store
    }

    static func names(_ store: SyncStore, _ predicate: QueryPredicate<Household>) throws -> [String] {
        let query = Query<Household>().filter(predicate)
        let table = try store.sqliteTransaction { try $0.changes.tables.table(for: Household.self) }
        #expect(QuerySQL(query, table: table, tables: { _ in table }) != nil, "in SQL")
        return try store.fetch(query).map(\.recordName)
    }

    /// Breaking it: `syncgen_list_references` comparing only strings (not a reference's record
    /// name) finds no household whose members hold the cabin.
    @Test func aListOfReferencesInSQL() throws {
        let store = try Self.store()
        #expect(try Self.names(store, .references(\.members, RecordReference(recordName: "cabin"))) == ["flat", "home"])
        #expect(try Self.names(store, .references(\.members, where: \.name == "Cabin")) == ["flat", "home"])
        #expect(try Self.names(store, !.references(\.members, where: \.name == "Cabin")) == ["cabin"])
        #expect(try Self.names(store, .isReferenced(by: \Household.members, where: \.name == "Flat")) == ["cabin", "home"])
        #expect(try Self.names(store, .isReferenced(by: \Household.members, atLeast: 2)) == ["cabin"])
        #expect(try Self.names(store, .contains(\.tags, "x")) == [])
    }

    /// A reference to the model's own type, both ways: the subquery's table is the model's own,
    /// aliased apart. Breaking it: comparing the link with an unqualified `_name` (the subquery's
    /// own row) keeps the households that are their own partner (none).
    @Test func aReferenceToTheSameType() throws {
        let store = try Self.store()
        #expect(try Self.names(store, .references(\.partner, where: \.name == "Cabin")) == ["home"])
        #expect(try Self.names(store, .isReferenced(by: \Household.partner)) == ["cabin", "home"])
        #expect(try Self.names(store, .isReferenced(by: \Household.partner, where: .references(\.partner, where: \.name == "Home"))) == ["home"])
        let joined = try store.fetch(Query<Household>(), with: \.partner)
        #expect(joined.map { "\($0.model.name)→\($0.target?.name ?? "-")" } == ["Cabin→-", "Flat→Home", "Home→Cabin"])
    }
}
