import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncPorts
import SyncRuntime
import Testing
@testable import SyncEngineKit
@testable import SyncLocalCloud
@testable import SyncLocalStore

/// A server query's pages kept in the store (`query(_:after:keeping:)`), on a device that does
/// not mirror the catalog: what a page brought is there to read, query and observe offline, the
/// type's kept records are evicted by count and age as the app sets, and nothing of it goes up.
@Suite("Server queries: kept results")
struct KeptResultsTests {
    /// A reader that never copies the public notes whole: it reads them by server queries only.
    static let queryOnly = SyncConfiguration(mirroredCatalogs: [])

    /// Alice publishes notes "n0"... titled "Soup 0"..., a minute apart.
    static func published(_ count: Int, in world: SyncWorld) async throws {
        let alice = try world.device("alice-phone", account: "alice")
        for index in 0..<count {
            world.clock.advance(by: 60)
            let note = Note(recordName: "n\(index)", title: "Soup \(index)", createdAt: world.clock.now)
            try alice.store.save(note)
            try await alice.engine.publish(note)
        }
        await alice.sync()
    }

    static let newestFirst = ServerQuery<PublishedNote>().filter(.hasPrefix(\.title, "Soup")).sorted(by: \.createdAt, .descending).limit(2)

    static func names(_ store: SyncStore) throws -> [String] {
        try store.fetchAll(PublishedNote.self).map(\.recordName).sorted()
    }

    /// A catalog left out of `mirroredCatalogs` is never pulled or watched: a pass stores none of
    /// it and saves no query subscription for it.
    @Test func aCatalogNotMirroredIsNeverPulled() async throws {
        let world = try SyncWorld()
        try await Self.published(3, in: world)
        let reader = try world.device("reader", account: "carol", configuration: Self.queryOnly)
        await reader.sync()
        #expect(try Self.names(reader.store).isEmpty)
        #expect(!reader.gateway.queries.contains { $0.recordType == "PublishedNote" }, "a pass queried the catalog")
    }

    /// The kept page is in the store as the cloud's version: read by name, by a local query and
    /// by an observer, offline too; the reader has nothing to push. Without `keeping`, a page is
    /// written nowhere (ServerQueryEngineTests).
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aKeptPageIsReadObservedAndQueriedOffline(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        try await Self.published(3, in: world)
        let reader = try world.device("reader", account: "carol", configuration: Self.queryOnly)
        var observed = reader.store.observe(PublishedNote.self).makeAsyncIterator()
        #expect(try await observed.next()?.isEmpty == true)
        let page = try await reader.engine.query(Self.newestFirst, keeping: ResultRetention())
        #expect(page.models.map(\.recordName) == ["n2", "n1"])
        #expect(try await observed.next()?.map(\.recordName).sorted() == ["n1", "n2"], "the observer saw the kept page")
        world.cloud.setNetworkAvailable(false, for: "reader")
        #expect(try reader.store.fetch(PublishedNote.self, recordName: "n2")?.title == "Soup 2")
        #expect(try reader.store.fetch(Query<PublishedNote>().filter(\.title == "Soup 1")).map(\.recordName) == ["n1"])
        #expect(try !reader.store.hasUnpushedChanges(), "a kept page is the cloud's: nothing goes up")
        await #expect(throws: ServerQueryError.self) { try await reader.engine.query(Self.newestFirst, keeping: ResultRetention()) }
        #expect(try Self.names(reader.store) == ["n1", "n2"], "a failed page takes nothing away")
    }

    /// Beyond the count, the records kept first go (the first page's, in its order; a clock that
    /// stands still, as here, changes nothing), but never one the page brought; they
    /// go as the cloud's deletions (nothing is pushed, the cloud keeps them) with their known
    /// server version. Breaking it (seen failing): evicting without forgetting the server version
    /// leaves n3's behind.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func keptRecordsBeyondTheCountAreEvictedOldestFirst(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        try await Self.published(5, in: world)
        let reader = try world.device("reader", account: "carol", configuration: Self.queryOnly)
        let three = ResultRetention(maximumCount: 3, maximumAge: nil)
        let first = try await reader.engine.query(Self.newestFirst, keeping: three)
        let afterFirst: ServerQueryCursor = try #require(first.next)
        let second = try await reader.engine.query(Self.newestFirst, after: afterFirst, keeping: three)
        #expect(second.models.map(\.recordName) == ["n2", "n1"])
        #expect(try Self.names(reader.store) == ["n1", "n2", "n3"], "n4, kept first (pages are kept in their order), went")
        let afterSecond: ServerQueryCursor = try #require(second.next)
        _ = try await reader.engine.query(Self.newestFirst, after: afterSecond, keeping: ResultRetention(maximumCount: 0, maximumAge: nil))
        #expect(try Self.names(reader.store) == ["n0"], "the page stays, whatever the count")
        #expect(try reader.store.transaction { try $0.serverRecord(RecordID(recordName: "n3", zoneID: SyncConstants.publicZone)) } == nil)
        #expect(try !reader.store.hasUnpushedChanges())
        await reader.sync()
        #expect(try world.cloud.snapshot().publicRecords.count == 5, "an eviction deletes nothing in the cloud")
    }

    /// A record kept longer ago than the age goes at the next kept page; a record changed here
    /// and not yet pushed is never evicted. Breaking it (seen failing): evicting without asking
    /// for a local change deletes n4 and the reader's edit with it.
    @Test func keptRecordsOlderThanTheAgeGoButNotOneChangedHere() async throws {
        let world = try SyncWorld()
        try await Self.published(5, in: world)
        let reader = try world.device("reader", account: "carol", configuration: Self.queryOnly)
        let anHour = ResultRetention(maximumCount: nil, maximumAge: 3600)
        let first = try await reader.engine.query(Self.newestFirst, keeping: anHour)
        var changed = try #require(try reader.store.fetch(PublishedNote.self, recordName: "n4"))
        changed.title = "Soup 4, annotated"
        try reader.store.save(changed)
        world.clock.advance(by: 3601)
        let afterFirst: ServerQueryCursor = try #require(first.next)
        _ = try await reader.engine.query(Self.newestFirst, after: afterFirst, keeping: anHour)
        #expect(try Self.names(reader.store) == ["n1", "n2", "n4"], "n3 aged out; n4 holds a change of the reader's")
        #expect(try reader.store.fetch(PublishedNote.self, recordName: "n4")?.title == "Soup 4, annotated")
    }

    /// A kept record is another user's: an edit of it the cloud refuses (`permissionFailure`)
    /// is reverted at once to the version kept, since no pass reads the catalog to restore it.
    /// Breaking it (seen failing): asking for a catalog refresh, as for a mirrored catalog,
    /// leaves the refused title on the reader for good.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aRefusedEditOfAKeptRecordIsPutBackAsKept(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        try await Self.published(2, in: world)
        let reader = try world.device("reader", account: "carol", configuration: Self.queryOnly)
        _ = try await reader.engine.query(Self.newestFirst, keeping: ResultRetention())
        var note = try #require(try reader.store.fetch(PublishedNote.self, recordName: "n1"))
        note.title = "Carol's title"
        try reader.store.save(note)
        await reader.sync()
        #expect(try reader.store.fetch(PublishedNote.self, recordName: "n1")?.title == "Soup 1")
        #expect(try !reader.store.hasUnpushedChanges())
        #expect(try world.cloud.snapshot().publicRecords["n1"]?.fields["title"] == .string("Soup 1"))
    }

    /// `deleteAllCloudData` on a device that does not mirror the catalog takes the user's own
    /// publications out of its store at once: no pass reads that catalog to drop them. Breaking
    /// it (seen failing): only asking for a catalog refresh leaves "n0" here, deleted in the cloud.
    @Test func deletingAllCloudDataTakesThePublicationsOutOfACatalogNotMirrored() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice", configuration: Self.queryOnly)
        let note = Note(recordName: "n0", title: "Soup 0")
        try phone.store.save(note)
        try await phone.engine.publish(note)
        await phone.sync()
        #expect(try Self.names(phone.store) == ["n0"])
        _ = try await phone.engine.deleteAllCloudData()
        #expect(try world.cloud.snapshot().publicRecords.isEmpty)
        #expect(try Self.names(phone.store).isEmpty)
    }

    /// A kept record's file is known by its markers and downloaded only when the app asks, as a
    /// mirrored catalog's is: the page never carries it.
    @Test func aKeptRecordsFileIsDownloadedOnDemand() async throws {
        let world = try SyncWorld()
        let alice = try world.device("alice-phone", account: "alice")
        let picture = Data((0..<2_000).map { UInt8(truncatingIfNeeded: $0) })
        let note = Note(recordName: "n0", title: "Soup 0")
        try alice.store.save(note)
        try await alice.engine.attachAsset(picture, suffix: "jpg", to: \Note.cover, recordName: "n0")
        try await alice.engine.publish(try #require(try alice.store.fetch(Note.self, recordName: "n0")))
        await alice.sync()
        await alice.sync()
        let reader = try world.device("reader", account: "carol", configuration: Self.queryOnly)
        let downloaded = { try world.cloud.counters()["assetBytes.downloaded"] ?? 0 }
        let before = try downloaded()
        _ = try await reader.engine.query(Self.newestFirst, keeping: ResultRetention())
        #expect(try reader.store.fetch(PublishedNote.self, recordName: "n0")?.cover?.byteSize == Int64(picture.count))
        await reader.sync()
        #expect(try downloaded() == before, "a kept page carries no file")
        try await reader.engine.requestAssetDownload(for: \PublishedNote.cover, recordName: "n0")
        await reader.sync()
        let url = try await reader.engine.assetFileURL(for: \PublishedNote.cover, recordName: "n0")
        #expect(url.flatMap { try? Data(contentsOf: $0) } == picture)
    }

    /// A catalog this device mirrors is in the store whole: a kept page adds nothing and evicts
    /// nothing from it.
    @Test func aMirroredCatalogKeepsNothingMore() async throws {
        let world = try SyncWorld()
        try await Self.published(3, in: world)
        let reader = try world.device("reader", account: "carol")
        await reader.sync()
        #expect(try Self.names(reader.store) == ["n0", "n1", "n2"])
        _ = try await reader.engine.query(Self.newestFirst, keeping: ResultRetention(maximumCount: 1, maximumAge: nil))
        #expect(try Self.names(reader.store) == ["n0", "n1", "n2"])
        #expect(try reader.store.transaction { try $0.keptToEvict(recordType: "PublishedNote", keptBefore: nil, keeping: 0) }.isEmpty)
    }

    /// A kept page is one transaction: its models, their server versions, their dates and the
    /// evictions it makes. The reader's store (a file) dies at each commit of two kept pages in
    /// turn; reopened, it holds whole pages only, and asking again completes it. Breaking it
    /// (seen failing): writing the models in one transaction and noting them kept in a later one
    /// leaves, in a run cut between the two, the second page's models stored but never noted
    /// (n1 to n4 after the crash), and makes two commits a page.
    @Test func aCrashAtEachWriteOfAKeptPageLeavesWholePages() async throws {
        let two = ResultRetention(maximumCount: 2, maximumAge: nil)
        func run(crashAfter commits: Int?) async throws -> (kept: [String], commits: Int) {
            let world = try SyncWorld()
            try await Self.published(5, in: world)
            let url = world.assetFolder.appendingPathComponent("reader.sqlite")
            var reader = try world.device("reader", account: "carol", configuration: Self.queryOnly, store: SyncStore(url: url, clock: world.clock))
            let before = reader.store.writeCommits
            if let commits { reader.store.crash(afterCommits: commits) }
            var cursor: ServerQueryCursor?
            for page in 0..<2 {
                do {
                    cursor = try await reader.engine.query(Self.newestFirst, after: cursor, keeping: two).next
                } catch {
                    reader = try world.device("reader", account: "carol", configuration: Self.queryOnly, store: SyncStore(url: url, clock: world.clock))
                    let kept = try Self.names(reader.store)
                    #expect(kept == (page == 0 ? [] : ["n3", "n4"]), "crash after \(commits ?? -1) commits, in page \(page): \(kept)")
                    cursor = try await reader.engine.query(Self.newestFirst, after: cursor, keeping: two).next
                }
                world.clock.advance(by: 1)
            }
            return (try Self.names(reader.store), reader.store.writeCommits - before)
        }
        let reference = try await run(crashAfter: nil)
        #expect(reference.kept == ["n1", "n2"])
        #expect(reference.commits == 2, "a kept page is one commit")
        for commits in 0..<reference.commits {
            #expect(try await run(crashAfter: commits).kept == ["n1", "n2"], "crash after \(commits) commits")
        }
    }
}

/// What a failed page tells the app to do (`ServerQueryError.recovery`), on both paths.
@Suite("Server queries: failures")
struct ServerQueryFailureTests {
    /// Three published notes, a reader that mirrors no catalog, and the cursor after the first
    /// page of `newestFirst` (kept when `keeping` says).
    private static func afterTheFirstPage(throughCloudKit: Bool, keeping: ResultRetention? = nil) async throws -> (SyncWorld, SyncWorld.Device, ServerQueryCursor) {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        try await KeptResultsTests.published(3, in: world)
        let reader = try world.device("reader", account: "carol", configuration: KeptResultsTests.queryOnly)
        let first = try await reader.engine.query(KeptResultsTests.newestFirst, keeping: keeping)
        return (world, reader, try #require(first.next))
    }

    /// Apple, `CKQueryOperation.init(cursor:)`: "don't cache cursors for a long time before using
    /// them". A cursor the cloud no longer takes says start over, and the first page comes again.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func anExpiredCursorSaysStartOver(throughCloudKit: Bool) async throws {
        let (world, reader, cursor) = try await Self.afterTheFirstPage(throughCloudKit: throughCloudKit)
        try world.cloud.expireQueryCursors()
        let error = await #expect(throws: ServerQueryError.self) { try await reader.engine.query(KeptResultsTests.newestFirst, after: cursor) }
        #expect(error?.recovery == .startOver)
        #expect(try await reader.engine.query(KeptResultsTests.newestFirst).models.map(\.recordName) == ["n2", "n1"])
    }

    /// Apple, `CKError.Code.requestRateLimited`: the error's `retryAfterSeconds` says how long to
    /// wait; the same page, with the same cursor, comes after it.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aRateLimitSaysWaitThenRetry(throughCloudKit: Bool) async throws {
        let (world, reader, cursor) = try await Self.afterTheFirstPage(throughCloudKit: throughCloudKit)
        world.cloud.inject(ScriptedFault(CloudError(.requestRateLimited, "slow down", retryAfter: 30), on: .query, account: "carol"))
        let error = await #expect(throws: ServerQueryError.self) { try await reader.engine.query(KeptResultsTests.newestFirst, after: cursor) }
        #expect(error?.recovery == .retry(after: 30))
        #expect(try await reader.engine.query(KeptResultsTests.newestFirst, after: cursor).models.map(\.recordName) == ["n0"])
    }

    /// A network lost mid-query says retry when online; the same cursor then goes on, and the
    /// failed page kept nothing.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aLostNetworkSaysRetryWhenOnline(throughCloudKit: Bool) async throws {
        let (world, reader, cursor) = try await Self.afterTheFirstPage(throughCloudKit: throughCloudKit, keeping: ResultRetention())
        world.cloud.setNetworkAvailable(false, for: "reader")
        let error = await #expect(throws: ServerQueryError.self) {
            try await reader.engine.query(KeptResultsTests.newestFirst, after: cursor, keeping: ResultRetention())
        }
        #expect(error?.recovery == .retryWhenOnline)
        #expect(try KeptResultsTests.names(reader.store) == ["n1", "n2"])
        world.cloud.setNetworkAvailable(true, for: "reader")
        _ = try await reader.engine.query(KeptResultsTests.newestFirst, after: cursor, keeping: ResultRetention())
        #expect(try KeptResultsTests.names(reader.store) == ["n0", "n1", "n2"])
    }

    /// A first page the cloud refuses for good (here, a request it calls invalid) is reported:
    /// asking again would fail again.
    @Test func aRefusedFirstPageIsReported() async throws {
        let world = try SyncWorld()
        let reader = try world.device("reader", account: "carol", configuration: KeptResultsTests.queryOnly)
        world.cloud.inject(ScriptedFault(CloudError(.invalidArguments, "field is not marked queryable"), on: .query, account: "carol"))
        let error = await #expect(throws: ServerQueryError.self) { try await reader.engine.query(KeptResultsTests.newestFirst) }
        #expect(error?.recovery == .report)
    }
}
