import Foundation
@_spi(SyncgenGenerated) import SyncCore
import Testing
import GeneratedCoverage

/// A `ServerQuery` says what the cloud is asked: each condition on its field's record key, with
/// the value as the record holds it, the sorts in order with their direction, the page's size.
/// (A condition or a sort the schema's indexes do not allow does not compile:
/// Tests/PublicAPI/Misuse/ServerQueryCondition and ServerQuerySort.)
@Suite("Server queries: what a query asks")
struct ServerQueryTests {
    @Test func aQuerySaysItsConditionsSortsAndPage() {
        let query = ServerQuery<PublishedNote>()
            .filter(\.title == "Soup" && .hasPrefix(\.title, "So"))
            .filter(.isIn(\.title, ["Soup", "Stew"]) && \.title != "Salad")
            .sorted(by: \.createdAt, .descending)
            .limit(20)
        #expect(query.conditions == [
            FieldCondition("title", .equal, [.string("Soup")]),
            FieldCondition("title", .beginsWith, [.string("So")]),
            FieldCondition("title", .isIn, [.string("Soup"), .string("Stew")]),
            FieldCondition("title", .notEqual, [.string("Salad")]),
        ])
        #expect(query.sorts == [FieldSort("createdAt", ascending: false)])
        #expect(query.pageSize == 20)
        #expect(ServerQuery<PublishedNote>().limit(0).pageSize == 1, "a page holds one record at least")
        #expect(ServerQuery<PublishedNote>().matching("green soup").conditions == [FieldCondition("", .allTokens, [.string("green soup")])])
    }

    /// An enum field compares by its case, as the record holds it (its raw text).
    @Test func anEnumFieldComparesByItsCase() {
        let query = ServerQuery<PublicArticle>().filter(\.status == .live && .isIn(\.status, [.draft]))
        #expect(query.conditions == [FieldCondition("status", .equal, [.string("live")]), FieldCondition("status", .isIn, [.string("draft")])])
    }

    /// A reference compares by the record it names (no delete action: CloudKit matches record
    /// IDs), and a list field by membership (`CONTAINS`), its elements typed.
    @Test func referencesCompareByTheirRecordAndListsByMembership() {
        let author = RecordReference<PublicAuthor>(recordName: "ann")
        let query = ServerQuery<PublicArticle>()
            .filter(\.author == author && \.author != RecordReference(recordName: "bob") && .isIn(\.author, [author]))
            .filter(.contains(\.coauthors, author) && .contains(\.labels, .news))
        #expect(query.conditions == [
            FieldCondition("author", .equal, [.reference(SyncReference(recordName: "ann"))]),
            FieldCondition("author", .notEqual, [.reference(SyncReference(recordName: "bob"))]),
            FieldCondition("author", .isIn, [.reference(SyncReference(recordName: "ann"))]),
            FieldCondition("coauthors", .contains, [.reference(SyncReference(recordName: "ann"))]),
            FieldCondition("labels", .contains, [.string("news")]),
        ])
    }

    /// Ranges on a queryable field compare with a value of the field's type.
    @Test func rangesSayTheirComparison() {
        let query = ServerQuery<PublishedNote>().filter(\.title >= "A" && \.title < "M" && \.title > "" && \.title <= "Z")
        #expect(query.conditions.map(\.comparison) == [.greaterOrEqual, .less, .greater, .lessOrEqual])
    }
}
