import Foundation
import SyncCore

extension SyncStore {
    /// The models of a type, filtered and sorted, at once and again after every committed
    /// transaction that saved or deleted one of that type, whoever wrote it: the app, or the
    /// sync engine applying pulled, merged or deleted records. A transaction that changes only
    /// other types emits nothing; one that changes many models of the type emits once; one that
    /// leaves the results as they were (a save of the same values, a change outside the filter)
    /// emits nothing. A reader slower than the commits gets the newest results, never a stale
    /// queue of them. The stream ends with the store's error if a read fails, and stops reading
    /// when it is cancelled.
    public func observe<Model: SyncModel>(
        _ type: Model.Type,
        where isIncluded: (@Sendable (Model) -> Bool)? = nil,
        sortedBy areInIncreasingOrder: (@Sendable (Model, Model) -> Bool)? = nil
    ) -> AsyncThrowingStream<[Model], any Error> {
        observe(type) { store in try store.fetchAll(type, where: isIncluded, sortedBy: areInIncreasingOrder) }
    }

    /// The query's results at once, and again after every committed transaction that saved or
    /// deleted a model of its type, or of a type its related conditions read:
    /// `observe(_:where:sortedBy:)` for a `Query`.
    public func observe<Model: SyncModel>(_ query: Query<Model>) -> AsyncThrowingStream<[Model], any Error> {
        follow(commits(), when: query.isChanged(by:)) { store in try store.fetch(query) }
    }

    /// `read`'s results at once, and again after each commit that changed a model of the type,
    /// when they changed.
    private func observe<Model: SyncModel>(_ type: Model.Type, read: @escaping @Sendable (SyncStore) throws -> [Model]) -> AsyncThrowingStream<[Model], any Error> {
        follow(commits(), when: { $0.touches(type) }, read: read)
    }

    /// `read`'s answer at once, and again after each event `isRelevant` keeps, only when the answer
    /// changed (the models are `Hashable`): a commit that left it as it was wakes no reader, as
    /// GRDB's `removeDuplicates` does. Listening starts before the first read, so no event falls
    /// between the two. A reader slower than the events gets the newest answer. The stream ends
    /// with the store's error if a read fails, and stops reading when it is cancelled.
    func follow<Event: Sendable, Value: Equatable & Sendable>(
        _ events: AsyncStream<Event>, when isRelevant: @escaping @Sendable (Event) -> Bool, read: @escaping @Sendable (SyncStore) throws -> Value
    ) -> AsyncThrowingStream<Value, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Value, any Error>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let reading = Task {
            do {
                var last = try read(self)
                continuation.yield(last)
                for await event in events where isRelevant(event) {
                    let now = try read(self)
                    if now != last { continuation.yield(now) }
                    last = now
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in reading.cancel() }
        return stream
    }
}

extension SyncStore {
    /// Where a record stands with the cloud (synced, waiting to upload, refused), and when sync
    /// last resolved a conflict on it; nil for a record the store neither holds nor has a
    /// change of (a deletion waiting to go up still has a status).
    public func syncStatus<Model: SyncModel>(of type: Model.Type, recordName: String) throws -> RecordSyncStatus? {
        try sqliteReading { try $0.syncStatus(recordType: Model.recordType, recordName: recordName) }
    }

    /// The record's status at once, and again each time a committed transaction changes it: an
    /// edit, a push, a refusal, a retry, a merge. A reader slower than the changes gets the
    /// newest status. The stream ends with the store's error if a read fails.
    public func observeSyncStatus<Model: SyncModel>(of type: Model.Type, recordName: String) -> AsyncThrowingStream<RecordSyncStatus?, any Error> {
        observeWrites { store in try store.syncStatus(of: type, recordName: recordName) }
    }

    /// `read`'s answer at once, and again each time a committed transaction changes it.
    func observeWrites<Value: Equatable & Sendable>(_ read: @escaping @Sendable (SyncStore) throws -> Value) -> AsyncThrowingStream<Value, any Error> {
        follow(writes(), when: { _ in true }, read: read)
    }
}

extension Query {
    /// Whether a commit may change the query's answer: it changed a model of the type, or of a
    /// type a related condition reads.
    @Sendable func isChanged(by commit: StoreCommit) -> Bool {
        commit.touches(Model.self) || predicate.map { predicate in
            let types = predicate.relatedRecordTypes
            return commit.changes.contains { types.contains($0.recordType) }
        } == true
    }

    /// Whether a commit may change the query's models read each with a record of `Target`
    /// (`fetch(_:with:)`): as `isChanged(by:)`, or it changed a model of `Target`.
    func isChanged<Target: SyncModel>(by commit: StoreCommit, joining target: Target.Type) -> Bool {
        isChanged(by: commit) || commit.touches(Target.self)
    }
}
