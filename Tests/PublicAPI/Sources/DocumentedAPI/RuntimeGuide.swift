import Foundation
import SyncRuntime
import SyncLocalCloud
import SyncTesting

// Every call docs/Runtime.md describes, in the order it describes them, as an app makes them.
// Compiled, never run: what it proves is that each call exists, is public and takes what the
// guide says it takes.

/// "The runtime: store and engine": the common case.
func startSyncing(storeFile: URL, cloudFile: URL) async throws -> (SyncStore, SyncEngine) {
    let store = try SyncStore(url: storeFile)
    let cloud = try LocalCloud.file(at: cloudFile)
    let engine = SyncEngine(store: store, cloud: try cloud.device("phone", account: "alice"), schema: SyncSchema.self)
    await engine.start()
    try store.save(Note(title: "Buy milk"))
    return (store, engine)
}

/// Every initialiser and configuration parameter, and what a pass returns.
func constructionAndPasses(store: SyncStore, cloud: LocalCloud) async throws {
    let clock = ManualClock()
    let configuration = SyncConfiguration(
        syncZoneName: "Sync", conflictPolicies: ["Note": .clientWins], defaultConflictPolicy: .lastWriterWins,
        zoneChangesPageSize: 200, maxRequestBytes: CloudKitLimits.maxRequestBytes, debounce: 0.5,
        subscriptionPrefix: "myapp", uploadEverythingOnSetup: false,
        assetCacheRoot: URL(fileURLWithPath: "/tmp/assets"), assetCacheLimit: 512 * 1024 * 1024)
    let engine = SyncEngine(
        store: store, cloud: try cloud.device("tablet", account: "alice"), schema: SyncSchema.self,
        clock: clock, configuration: configuration, assetFiles: nil)
    let partial = SyncEngine(store: store, cloud: try cloud.device("watch", account: "alice"), models: [Note.self, PublishedNote.self])
    _ = partial.configuration.syncZoneName
    clock.advance(by: 1)

    switch await engine.sync() {
    case .completed:
        break
    case .failed(.cloud(let error), let action):
        print("the cloud: \(error.code), the engine's action: \(action)")
    case .failed(.localStore(let error), let action):
        print("this device's store: \(error.reason), the engine's action: \(action)")  // .tellUserStorageFull when full
    case .failed(.assetFiles(let error), _):
        print("the asset cache: \(error)")
    case .stopped(let pendingChanges):
        print("stopped at its deadline; \(pendingChanges) changes left")
    }
    await engine.stop()
}

/// "One public record by its name": the app's settings, read by name and followed, their type
/// not mirrored.
func followTheSettings(store: SyncStore, cloud: LocalCloud) async throws {
    let settings = FollowedRecord(PublishedNote.self, named: "settings", maximumAge: 600)
    let engine = SyncEngine(
        store: store, cloud: try cloud.device("phone", account: "alice"), schema: SyncSchema.self,
        configuration: SyncConfiguration(mirroredCatalogs: [], followedRecords: [settings]))
    await engine.sync()
    for try await found in store.observe(PublishedNote.self, where: { $0.recordName == "settings" }, sortedBy: { $0.title < $1.title }) {
        print("the settings now:", found.first?.title ?? "none in the cloud")
        break
    }
}

/// "A sync pass": a background task's window bounds a pass, and its expiration ends it.
func backgroundRefresh(_ engine: SyncEngine, seconds: TimeInterval, clock: any SyncClock) async -> Bool {
    switch await engine.sync(.all.until(clock.now + seconds)) {
    case .completed: true
    case .stopped, .failed: false   // the system's task ends; what the pass did is committed
    }
}

/// On the expiration handler: the pass that runs stops before its next request.
func backgroundTaskExpires(_ engine: SyncEngine) async {
    await engine.endPassSoon()
}


/// "A sync pass": a push the app's delegate received, handed to the engine.
func remoteNotification(_ engine: SyncEngine, userInfo: [AnyHashable: Any]) async -> Bool? {
    switch await engine.handleRemoteNotification(userInfo) {
    case .newData: true
    case .noData: false
    case .notForSync: nil  // the app's own push
    }
}

/// "The local store".
func localStore(_ store: SyncStore) throws {
    var note = Note(title: "Draft")
    try store.save(note)
    try store.save([note, Note(title: "Other")], author: .named("importer"))
    note.title = "Final"
    try store.write(author: .app) { writer in
        try writer.save(note)
        if let old = try writer.fetch(Note.self, recordName: "old") { try writer.delete(old) }
        _ = try writer.fetchAll(Note.self)
    }
    _ = try store.fetch(Note.self, recordName: note.recordName)
    _ = try store.fetchAll(Note.self, where: { $0.title.hasPrefix("F") }, sortedBy: { $0.title < $1.title })
    _ = try store.count(Note.self)
    try store.delete(note)
    try store.delete(Note.self, recordName: "gone")
    _ = try store.hasUnpushedChanges()
    _ = store.changes()

    do {
        try store.save(Note(recordName: "_reserved"))
    } catch let refusal as RecordRefusal {
        switch refusal {
        case .tooLarge(let recordType, let recordName, let bytes, let limit):
            print("\(recordType) \(recordName): \(bytes) bytes, more than \(limit)")
        case .invalidRecordName(let recordType, let recordName, let reason):
            print("\(recordType) \(recordName): \(reason)")
        case .notFinite(let recordType, let recordName, let field, let value):
            print("\(recordType) \(recordName).\(field): \(value) is not a finite number")
        }
    }
    _ = RecordSize.of(note.makeRecord())
}

/// "Assets".
func assets(_ engine: SyncEngine, note: Note, jpegData: Data) async throws {
    try await engine.attachAsset(jpegData, suffix: "jpg", to: \Note.photo, recordName: note.recordName, pinned: true)
    let url = try await engine.assetFileURL(for: \Note.photo, recordName: note.recordName)
    _ = url
    try await engine.requestAssetDownload(for: \PublishedNote.photo, recordName: note.recordName)
    try await engine.unpinAsset(for: \Note.photo, recordName: note.recordName)
    for await state in engine.assetStates(for: \Note.photo, recordName: note.recordName) where state == .cached { break }
    do {
        _ = try AssetCacheLocation.defaultRoot()
    } catch {
        print(AssetError.noCacheFolder(error.description))
    }
}

/// "Errors and recovery".
func recovery(_ failure: SyncError, _ error: CloudError) {
    _ = RecoveryPolicy.action(for: failure)
    _ = failure.cloudError
    let action = RecoveryPolicy.action(for: error)
    _ = RecoveryPolicy.itemAction(for: error)
    _ = RecoveryPolicy.retryDelay(after: action, failuresBefore: 2)
    _ = error.retryAfter
}

/// "Changes the cloud refuses", "Records the cloud could not deliver", "What can be lost", "Accounts", "The user's data in the cloud".
func decisions(_ engine: SyncEngine) async throws {
    for failed in try await engine.failedChanges() {
        print(failed.recordType, failed.recordName, failed.kind, failed.error, failed.failedAt)
    }
    if let failed = try await engine.failedChange(for: Note.self, recordName: "n") { print(failed.error) }
    try await engine.retryFailedChange(for: Note.self, recordName: "n")
    try await engine.revertFailedChange(for: Note.self, recordName: "n")

    for record in try await engine.unreadableRecords() {
        print(record.id, record.error, record.failedFetches, record.firstFailedAt, record.isSetAside, record.isUnreadableByThisVersion)
    }
    try await engine.retryUnreadableRecords()

    let note = Note(title: "Milk")
    print(note.hasSameContents(as: note))

    let lost = try await engine.lostChanges()
    for change in lost where LostChange.isLoss(change.event) { print(change.id, change.event, change.droppedAt) }
    if let last = lost.last { try await engine.acknowledgeLostChanges(through: last.id) }

    for parked in try await engine.parkedChanges() { print(parked.userRecordName, parked.count) }
    try await engine.discardParkedChanges(of: "_alice")

    _ = try await engine.userDeletedZones()
    try await engine.uploadAgainAfterUserDeletedZone()
    try await engine.removeLocalDataOfUserDeletedZone()
    _ = try await engine.deleteAllCloudData()
}

/// "Publishing".
func publishing(_ engine: SyncEngine, note: Note) async throws {
    do {
        try await engine.publish(note)
        try await engine.unpublish(Note.self, recordName: note.recordName)
        try await engine.takedown(PublishedNote.self, recordName: note.recordName)
        try await engine.relist(PublishedNote.self, recordName: note.recordName)
        try await engine.deleteDraft(note)
    } catch .projectionNotRegistered(let type) {
        print("\(type) is not one of the engine's models")
    } catch .refused(let refusal) {
        print(refusal)
    } catch {
        print(error)
    }
    let catalog = try SyncStore(url: nil).fetchAll(PublishedNote.self, where: { $0.publicationLifecycle.isVisibleInCatalog })
    _ = catalog
}

/// "Server queries": a device that mirrors no catalog, pages the cloud answers and the store
/// keeps, and what a failure tells the app to do.
func serverQueries(store: SyncStore, cloud: LocalCloud) async throws {
    // This device copies no catalog whole: it reads them by server queries only.
    let engine = SyncEngine(
        store: store, cloud: try cloud.device("watch", account: "alice"), schema: SyncSchema.self,
        configuration: SyncConfiguration(mirroredCatalogs: []))
    let query = ServerQuery<PublishedNote>()
        .filter(.hasPrefix(\.title, "Soup"))
        .matching("green")
        .sorted(by: \.createdAt, .descending)
        .limit(20)
    let keeping = ResultRetention(maximumCount: 200, maximumAge: 7 * 24 * 3600)
    do {
        let page = try await engine.query(query, keeping: keeping)
        print(page.models.map(\.title), page.unreadable)
        if let next = page.next { _ = try await engine.query(query, after: next, keeping: keeping) }
    } catch {
        switch error.recovery {
        case .retry(let seconds): print("ask for the same page in \(seconds) s: \(error.error)")
        case .retryWhenOnline: print("ask for the same page when the network is back")
        case .startOver: print("run the query again from its first page")
        case .report: print(error)
        }
    }
}

/// "Events": structured values, never text.
func events(_ engine: SyncEngine) async {
    for await event in engine.events() {
        switch event {
        case .changeSetAside(let failed), .changeReverted(let failed):
            print("badge \(failed.recordName)")
        case .removedWithParent(let key, let parentRecordName):
            print("\(key) went with \(parentRecordName)")
        case .changesParked(let parked):
            print("\(parked.count) changes wait for \(parked.userRecordName)")
        case .retryScheduled(let after, let reason):
            print("retry in \(after) s (\(reason))")
        case .pullProgress(let scope, let zone, let records, let deletions):
            print(scope, zone, records, deletions)
        case .duplicatesMerged(let survivor, let merged):
            print("\(merged) merged into \(survivor.recordName)")
        case .conflictRecorded(let conflict):
            print("\(conflict.recordID.recordName): \(conflict.fields.map(\.field)) settled")
        case .recordUnreadable(let record):
            print("\(record.id.recordName) could not be read: \(record.error)")
        case .accountChanged(.switched(let from, let to)):
            print("\(from) signed out, \(to) signed in")
        case .accountChanged(let change):
            print("signed in now: \(change.user ?? "nobody")")
        case .setupCompleted, .setupFailed, .accountUnavailable, .parkedChangesRestored,
             .pullStarted, .pullCompleted, .pushStarted, .pushLanded, .pushCompleted, .pushFailed, .conflictResolved,
             .shareAccepted, .shareEnded, .changeLostToDeletion, .danglingReferences, .userDeletedZone, .encryptedDataReset, .waitingForNetwork,
             .assetStateChanged, .assetTransferFailed, .assetTransfersWaiting, .zoneMoved, .error:
            print(event)
        }
    }
}

/// "Screens that follow the store": a list that follows the store, and the records each commit changed.
@MainActor
func followTheStore(_ store: SyncStore) async throws {
    let notes = LiveQuery(store, Note.self, where: { !$0.title.isEmpty }, sortedBy: { $0.title < $1.title })
    print(notes.results.map(\.title), notes.error == nil)
    for try await titles in store.observe(Note.self).map({ $0.map(\.title) }) {
        print("now:", titles)
        break
    }
    for await commit in store.commits() {
        for change in commit.changes(of: Note.self) where change.isFromSync {
            print("sync \(change.kind == .save ? "saved" : "deleted") \(change.recordName), as \(change.author)")
        }
        if commit.touches(Note.self) { break }
    }
}

/// "A record's badge" and "The engine's status": what a row and a status line show.
func badge(for note: Note, store: SyncStore, engine: SyncEngine) async throws -> String {
    for try await status in store.observeSyncStatus(of: Note.self, recordName: note.recordName) {
        switch status?.state {
        case .synced?, nil: break
        case .waitingToUpload(let since)?: return "waiting since \(since)"
        case .failed(let change)?: return "refused: \(change.error.code)"
        }
        if let merged = status?.lastConflictResolution { return "merged at \(merged)" }
        break
    }
    let status = engine.status
    print("signed in:", engine.currentUserRecordName ?? status.userRecordName ?? "nobody")
    for await update in engine.statusUpdates() where update.phase == .idle {
        print(update.pendingChanges, update.lastCompletedPass ?? .distantPast, update.isOffline, update.lastError?.description ?? "")
        break
    }
    return status.isOffline ? "offline" : "synced"
}

/// "Typed queries": which items, in what order, how many.
func typedQueries(_ store: SyncStore, groceries: Checklist) throws {
    let open = Query<ChecklistItem>()
        .filter(.isChild(of: groceries.recordName) && \.done == false)
        .sorted(by: \.done, .descending)
        .sorted(by: \.text)
        .limit(20, offset: 0)
    let items: [ChecklistItem] = try store.fetch(open)
    let toBuy = try store.count(Query<ChecklistItem>().filter(.hasPrefix(\.text, "Buy") && !.contains(\.text, "milk") || \.text != ""))
    print(items.count, toBuy)

    // Who made and who last changed a record, as the cloud reports them: never a field.
    let bobs = try store.fetch(Query<ChecklistItem>().filter(.createdBy("_bob") || .lastModifiedBy("_bob")))
    for item in bobs {
        let who = try store.authorship(of: item)
        print(item.text, "added by", who.isCreatedByCurrentUser ? "me" : who.createdBy, "on", who.createdAt ?? .now)
    }
}

/// "Searching the store's text": a search box, offline, best matches first.
@MainActor
func offlineSearch(_ store: SyncStore, groceries: Checklist, typed: String) throws -> LiveQuery<ChecklistItem> {
    let search = Query<ChecklistItem>()
        .matching(typed)                               // "Milk caf": milk, and a word starting with caf
        .filter(.isChild(of: groceries.recordName))
        .limit(20)
    for item in try store.fetch(search) {
        guard let snippet = search.snippet(of: item) else { continue }
        print(snippet.text, snippet.matches.map { snippet.text[$0] })
    }
    print(try store.count(search))
    return LiveQuery(store, search)                    // follows every commit, pulls included
}

/// "Related records": items with their list, filtered through references both ways.
func relatedRecords(_ store: SyncStore) throws {
    for row in try store.fetch(Query<ChecklistItem>().sorted(by: \.text).limit(50), with: \.parent) {
        print(row.model.text, "in", row.target?.title ?? "a list not pulled yet")
    }
    // Items of the lists titled "Groceries"; lists with an open item; lists with five items or more.
    let groceries = try store.fetch(Query<ChecklistItem>().filter(.references(\.parent, where: \.title == "Groceries")))
    let open = try store.fetch(Query<Checklist>().filter(.isReferenced(by: \ChecklistItem.parent, where: \.done == false)))
    let long = try store.count(Query<Checklist>().filter(.isReferenced(by: \ChecklistItem.parent, atLeast: 5)))
    print(groceries.count, open.map(\.title), long)
}

/// "Reading with SQL": a statement of the app's own, typed rows out.
func readingWithSQL(_ store: SyncStore) throws {
    let rows = try store.read(sql: """
        SELECT l.title, COUNT(i._name) AS open FROM model_Checklist AS l
        LEFT JOIN model_ChecklistItem AS i ON i._parent = l._name AND i.done = 0
        GROUP BY l._name HAVING open >= ? ORDER BY open DESC
        """, [.integer(1)])
    for row in rows {
        print(row.text("title") ?? "", row.integer("open") ?? 0)
    }
}

/// "Counts and sums": figures of a query, and of each group of its models.
func countsAndSums(_ store: SyncStore) async throws {
    let open = Query<ChecklistItem>().filter(\.done == false)
    let left: Int = try store.aggregate(.count, of: open)
    let longest: String? = try store.aggregate(.maximum(\.text), of: open)
    print(left, longest ?? "none")

    // Each list with its number of open items, the busiest first.
    let count = Aggregate<ChecklistItem, Int>.count
    let first = Aggregate<ChecklistItem, String?>.minimum(\.text)
    let perList = open.groupedByParent(count, first).sorted(by: count, .descending).limit(10)
    for list in try store.fetch(perList) {
        print(list.key ?? "no list", list[count], list[first] ?? "")
    }
    for try await badge in store.observe(.count, of: open) {   // again after each commit that changes it
        print(badge)
        break
    }
}

/// "Screens": a list, a detail, a badge and a status line, as views hold them.
@MainActor
func screens(store: SyncStore, engine: SyncEngine, groceries: Checklist) -> (LiveQuery<ChecklistItem>, LiveQuery<Checklist>, LiveRecordStatus<Checklist>, LiveEngineStatus) {
    let list = LiveQuery(store, Query<ChecklistItem>().filter(.isChild(of: groceries.recordName)).sorted(by: \.done).sorted(by: \.text))
    let detail = LiveQuery(store, Query<Checklist>().filter(\.recordName == groceries.recordName))
    let badge = LiveRecordStatus(store, Checklist.self, recordName: groceries.recordName)
    let line = LiveEngineStatus(engine)
    print(list.results.map(\.id), detail.results.first?.title ?? "gone", badge.status?.state == .synced, line.status.isOffline)
    return (list, detail, badge, line)
}

/// "Screens": a list's count of open items, every list with its count, and items with their list.
@MainActor
func figureScreens(store: SyncStore) -> (LiveValue<Int>, LiveValue<[AggregateGroup<ChecklistItem, String?>]>, LiveValue<[Joined<ChecklistItem, Checklist>]>) {
    let open = Query<ChecklistItem>().filter(\.done == false)
    let count = Aggregate<ChecklistItem, Int>.count
    let badge = LiveValue(store, count, of: open)
    let perList = LiveValue(store, open.groupedByParent(count))
    let rows = LiveValue(store, open.sorted(by: \.text).limit(50), with: \.parent)
    print(badge.value, perList.value.map { "\($0.key ?? "no list"): \($0[count])" }, rows.value.map { $0.target?.title ?? "not pulled yet" })
    return (badge, perList, rows)
}

/// "The local store": the columns of fields the schema dropped, let go once no longer needed.
func letDroppedFieldsGo(_ store: SyncStore) throws {
    let dropped: [String] = try store.discardDroppedFields(of: Note.self)
    print("dropped", dropped)
}

/// "Conflicts the app can see": what sync settled by itself, and the user taking their own value back.
func reviewConflicts(of note: Note, store: SyncStore) throws {
    for conflict in try store.conflicts(of: Note.self, recordName: note.recordName) {
        for field in conflict.fields {
            print("\(field.field): kept \(field.resolved.map(String.init(describing:)) ?? "nothing"), mine was \(field.local.map(String.init(describing:)) ?? "nothing")")
        }
        if let title = conflict.field("title"), title.resolved != title.local {
            try store.applyConflictValue(.local, of: "title", in: conflict, to: Note.self)
        }
        try store.dismissConflict(conflict)
    }
    print(try store.recentConflicts(limit: 20).count, SyncConfiguration(conflictRetention: ConflictRetention(maximumCount: 200, maximumAge: 7 * 24 * 3600)).conflictRetention)
}

/// "Natural keys": a second record of a key is refused, naming the one to edit instead.
func saveOnce(_ note: Note, store: SyncStore) throws {
    do {
        try store.save(note)
    } catch let duplicate as DuplicateNaturalKey {
        print("edit \(duplicate.existingRecordName) instead: \(duplicate.key) is taken")
    }
}

/// "A damaged store heals": the store opened at launch, and what healing it did told once.
func openStore(at storeURL: URL, tell: (String) -> Void) throws -> SyncStore {
    let store = SyncStore(healing: storeURL)             // never throws
    for report in try store.recoveries() {               // kept until acknowledged, across launches
        // report.outcome: .rebuilt or .inMemory; report.recovered: the changes carried over;
        // report.notRecovered: what could not be read, each saying what and why
        tell("\(report)")
    }
    try store.acknowledgeRecoveries()
    return store
}

/// "Diagnostics": where sync stands, for a support screen, and as JSON for a bug report.
func bugReportAttachment(_ engine: SyncEngine) throws -> Data {
    let snapshot = try engine.diagnostics()
    print(snapshot.pendingChanges, snapshot.setAside.map(\.error), snapshot.engine?.recentTrouble.last?.what ?? "no trouble")
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    return try encoder.encode(snapshot)
}
