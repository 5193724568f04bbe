import Foundation
@_spi(SyncgenGenerated) import SyncCore

/// A model and the record one of its references (or its parent) points at: nil when the
/// reference is unset, or its target is not in the store (not pulled yet, or deleted).
public struct Joined<Model: SyncModel, Target: SyncModel>: Sendable, Hashable {
    /// The model the query kept.
    public let model: Model
    /// The record the reference points at, or nil.
    public let target: Target?
}

extension SyncStore {
    /// The models a query keeps, in its order, its page, each with the record the optional
    /// reference, or the parent (`\.parent`), points at: one SQL statement.
    ///
    /// ```swift
    /// for row in try store.fetch(Query<ListItem>().sorted(by: \.text), with: \.parent) {
    ///     print(row.model.text, "in", row.target?.title ?? "no list")
    /// }
    /// ```
    public func fetch<Model: SyncModel, Target: SyncModel>(
        _ query: Query<Model>, with keyPath: KeyPath<Model, RecordReference<Target>?> & Sendable
    ) throws -> [Joined<Model, Target>] {
        try fetch(query, with: keyPath) { $0[keyPath: keyPath]?.recordName }
    }

    /// The models a query keeps, each with the record the required reference points at (nil
    /// while it is unset, or its target is not stored).
    public func fetch<Model: SyncModel, Target: SyncModel>(
        _ query: Query<Model>, with keyPath: KeyPath<Model, RecordReference<Target>> & Sendable
    ) throws -> [Joined<Model, Target>] {
        try fetch(query, with: keyPath) { model in
            let reference = model[keyPath: keyPath]
            return reference.isSet ? reference.recordName : nil
        }
    }

    /// `fetch(_:with:)` at once, and again after each commit that changed a model of either
    /// type (or of one the query's related conditions read), when the answer changed.
    public func observe<Model: SyncModel, Target: SyncModel>(
        _ query: Query<Model>, with keyPath: KeyPath<Model, RecordReference<Target>?> & Sendable
    ) -> AsyncThrowingStream<[Joined<Model, Target>], any Error> {
        follow(query, joining: Target.self) { store in try store.fetch(query, with: keyPath) }
    }

    /// `fetch(_:with:)` of a required reference at once, and again after each commit that
    /// changed a model of either type (or of one the query's related conditions read), when the
    /// answer changed.
    public func observe<Model: SyncModel, Target: SyncModel>(
        _ query: Query<Model>, with keyPath: KeyPath<Model, RecordReference<Target>> & Sendable
    ) -> AsyncThrowingStream<[Joined<Model, Target>], any Error> {
        follow(query, joining: Target.self) { store in try store.fetch(query, with: keyPath) }
    }

    /// `read` at once, and again after each commit that changed a model the query reads or one
    /// of `Target`, when the answer changed.
    private func follow<Model: SyncModel, Target: SyncModel>(
        _ query: Query<Model>, joining target: Target.Type, read: @escaping @Sendable (SyncStore) throws -> [Joined<Model, Target>]
    ) -> AsyncThrowingStream<[Joined<Model, Target>], any Error> {
        follow(commits(), when: { query.isChanged(by: $0, joining: Target.self) }, read: read)
    }

    private func fetch<Model: SyncModel, Target: SyncModel>(
        _ query: Query<Model>, with keyPath: AnyKeyPath, targetName: @escaping (Model) -> String?
    ) throws -> [Joined<Model, Target>] {
        guard let table = try tableToRead(Model.self) else { return [] }
        guard let (column, isList) = table.referenceColumn(keyPath, of: Model.self), !isList else {
            throw LocalStoreError(.other, "\(Model.recordType): the key path given to fetch(_:with:) is not one of its references")
        }
        return try runningSearch(query) { database in
            try JoinedRun<Model, Target>(query: query, database: database, table: table, column: column, targetName: targetName).rows()
        }
    }
}
