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
            try CatalogRefresh.finish("Recipe", began: now, answering: nil, in: store)
            #expect(try CatalogRefresh.due(["Recipe"], now: now.addingTimeInterval(60), maximumAge: 3600, in: store).isEmpty)
            #expect(try CatalogRefresh.due(["Recipe"], now: now.addingTimeInterval(3600), maximumAge: 3600, in: store) == ["Recipe"], "old")
            #expect(try CatalogRefresh.due(["Recipe"], now: now.addingTimeInterval(-60), maximumAge: 3600, in: store) == ["Recipe"], "clock set back")
            #expect(try CatalogRefresh.due(["Recipe"], now: now.addingTimeInterval(1_000_000), maximumAge: nil, in: store).isEmpty, "no age limit")

            try CatalogRefresh.request(["Recipe"], in: store)
            #expect(try CatalogRefresh.due(["Recipe"], now: now.addingTimeInterval(60), maximumAge: 3600, in: store) == ["Recipe"], "asked for")
            let answered = try CatalogRefresh.requests(of: "Recipe", in: store)
            try CatalogRefresh.request(["Recipe"], in: store)  // asked again while the refresh runs
            try CatalogRefresh.finish("Recipe", began: now.addingTimeInterval(60), answering: answered, in: store)
            #expect(try CatalogRefresh.due(["Recipe"], now: now.addingTimeInterval(120), maximumAge: 3600, in: store) == ["Recipe"], "the later request stays")
            try CatalogRefresh.finish("Recipe", began: now.addingTimeInterval(120), answering: try CatalogRefresh.requests(of: "Recipe", in: store), in: store)
            #expect(try CatalogRefresh.due(["Recipe"], now: now.addingTimeInterval(180), maximumAge: 3600, in: store).isEmpty)
        }
    }

    /// A notification refreshes the catalog its subscription watches, or every one when a public
    /// notification names none of them; a private one none.
    @Test func aNotificationNamesTheCatalogsItRefreshes() {
        let types = ["Recipe", "Tip"]
        let watched = CloudNotification(subscriptionID: CatalogRefresh.subscriptionID(for: "Tip", prefix: "catalog"), scope: .public)
        #expect(CatalogRefresh.types(notifiedBy: watched, prefix: "catalog", among: types) == ["Tip"])
        #expect(CatalogRefresh.types(notifiedBy: CloudNotification(subscriptionID: "older", scope: .public), prefix: "catalog", among: types) == types)
        #expect(CatalogRefresh.types(notifiedBy: CloudNotification(subscriptionID: "catalog-Tip", scope: .private), prefix: "catalog", among: types).isEmpty)
    }
}
