import Foundation
@testable import SyncEngineKit
import SyncCore
import SyncPorts
import Testing

/// ``CatalogRefresh`` on its own, over an in-memory transaction: when a catalog is due, and what
/// a refresh settles.
@Suite("Rule: catalog refresh")
struct CatalogRefreshTests {
    /// A catalog never refreshed is due; once refreshed it waits until it is `maximumAge` old (or
    /// dated after now: a clock set back); a request makes it due at once, and a refresh settles
    /// the requests it began with but not one made while it ran. Breaking it: `finish` clearing
    /// every request loses the one made during the refresh.
    @Test func aCatalogIsDueWhenAskedForOldOrNeverRefreshed() throws {
        let bench = try RuleBench(models: [])
        let now = bench.clock.now
        try bench.transaction { store in
            #expect(try CatalogRefresh.due(["Recipe"], now: now, maximumAge: 3600, in: store) == ["Recipe"], "never refreshed")
            try CatalogRefresh.finish(.catalog("Recipe"), began: now, answering: nil, in: store)
            #expect(try CatalogRefresh.due(["Recipe"], now: now.addingTimeInterval(60), maximumAge: 3600, in: store).isEmpty)
            #expect(try CatalogRefresh.due(["Recipe"], now: now.addingTimeInterval(3600), maximumAge: 3600, in: store) == ["Recipe"], "old")
            #expect(try CatalogRefresh.due(["Recipe"], now: now.addingTimeInterval(-60), maximumAge: 3600, in: store) == ["Recipe"], "clock set back")
            #expect(try CatalogRefresh.due(["Recipe"], now: now.addingTimeInterval(1_000_000), maximumAge: nil, in: store).isEmpty, "no age limit")

            try CatalogRefresh.request([.catalog("Recipe")], in: store)
            #expect(try CatalogRefresh.due(["Recipe"], now: now.addingTimeInterval(60), maximumAge: 3600, in: store) == ["Recipe"], "asked for")
            let answered = try CatalogRefresh.requests(of: .catalog("Recipe"), in: store)
            try CatalogRefresh.request([.catalog("Recipe")], in: store)  // asked again while the refresh runs
            try CatalogRefresh.finish(.catalog("Recipe"), began: now.addingTimeInterval(60), answering: answered, in: store)
            #expect(try CatalogRefresh.due(["Recipe"], now: now.addingTimeInterval(120), maximumAge: 3600, in: store) == ["Recipe"], "the later request stays")
            try CatalogRefresh.finish(.catalog("Recipe"), began: now.addingTimeInterval(120), answering: try CatalogRefresh.requests(of: .catalog("Recipe"), in: store), in: store)
            #expect(try CatalogRefresh.due(["Recipe"], now: now.addingTimeInterval(180), maximumAge: 3600, in: store).isEmpty)
        }
    }

    /// A notification refreshes what its subscription's type holds (the catalog, the records
    /// followed of it), or everything when a public notification names none of them; a private
    /// one nothing.
    @Test func aNotificationNamesWhatItRefreshes() {
        let targets: [CatalogRefresh.Target] = [.catalog("Recipe"), .catalog("Tip"), .record(recordType: "Settings", recordName: "current")]
        func notified(_ subscriptionID: String, _ scope: DatabaseScope = .public) -> [CatalogRefresh.Target] {
            CatalogRefresh.targets(notifiedBy: CloudNotification(subscriptionID: subscriptionID, scope: scope), prefix: "catalog", among: targets)
        }
        #expect(notified(CatalogRefresh.subscriptionID(for: "Tip", prefix: "catalog")) == [.catalog("Tip")])
        #expect(notified(CatalogRefresh.subscriptionID(for: "Settings", prefix: "catalog")) == [.record(recordType: "Settings", recordName: "current")])
        #expect(notified("older") == targets)
        #expect(notified("catalog-Tip", .private).isEmpty)
    }

    /// A followed record is due on its own terms, apart from its type's catalog: read, it is not
    /// due until its own age; asked for, it is. Breaking it (one key for both): refreshing the
    /// catalog would date the record too.
    @Test func aFollowedRecordIsDueOnItsOwn() throws {
        let bench = try RuleBench(models: [])
        let now = bench.clock.now
        let record = CatalogRefresh.Target.record(recordType: "Recipe", recordName: "soup")
        try bench.transaction { store in
            try CatalogRefresh.finish(.catalog("Recipe"), began: now, answering: nil, in: store)
            #expect(try CatalogRefresh.isDue(record, now: now, maximumAge: 60, in: store), "never read")
            try CatalogRefresh.finish(record, began: now, answering: nil, in: store)
            #expect(try !CatalogRefresh.isDue(record, now: now.addingTimeInterval(30), maximumAge: 60, in: store))
            #expect(try CatalogRefresh.isDue(record, now: now.addingTimeInterval(60), maximumAge: 60, in: store), "its own age")
            try CatalogRefresh.request([record], in: store)
            #expect(try CatalogRefresh.isDue(record, now: now.addingTimeInterval(30), maximumAge: 60, in: store), "asked for")
            #expect(try CatalogRefresh.due(["Recipe"], now: now.addingTimeInterval(30), maximumAge: 3600, in: store).isEmpty, "the catalog is not")
        }
    }
}
