import Foundation
import Observation
import SyncCore

/// A read that stays current, for a view to hold: a count or sum (`Aggregate`), a grouped
/// query's groups, or models each with the record they point at (`Joined`). `value` changes
/// after a committed transaction that touched a type the read depends on, whoever wrote it (the
/// app, or the engine applying what it pulled), and only when the answer changed. Observable,
/// on the main actor, read once at once (a view's first frame has it), stopped when released:
/// `LiveQuery` is the same for a query's models.
///
/// ```swift
/// struct ListBadge: View {
///     @State private var open: LiveValue<Int>
///     init(store: SyncStore, list: Checklist) {
///         _open = State(initialValue: LiveValue(store, .count, of: Query<ChecklistItem>()
///             .filter(.isChild(of: list.recordName)).filter(\.done == false)))
///     }
///     var body: some View { Text("\(open.value)") }
/// }
/// ```
@MainActor @Observable
public final class LiveValue<Value: Sendable & Equatable> {
    /// The answer as of the last commit that changed it (before the first read succeeds, or
    /// after a read failed: the answer for no models, a count of 0, no groups, no rows).
    public private(set) var value: Value
    /// Why the value stopped following the store: a read that failed. Nil while it follows it.
    public private(set) var error: (any Error)?
    @ObservationIgnored private var following: FollowingTask?

    /// The figure of the models `query` keeps (all of the type by default), kept current.
    public convenience init<Model: SyncModel>(_ store: SyncStore, _ aggregate: Aggregate<Model, Value>, of query: Query<Model> = Query()) {
        self.init(store.observe(aggregate, of: query), none: aggregate.figure(nil)) { try store.aggregate(aggregate, of: query) }
    }

    /// The groups of a grouped query, each with its figures, kept current.
    public convenience init<Model: SyncModel, Key>(_ store: SyncStore, _ grouped: GroupedQuery<Model, Key>) where Value == [AggregateGroup<Model, Key>] {
        self.init(store.observe(grouped), none: []) { try store.fetch(grouped) }
    }

    /// The models `query` keeps, each with the record the optional reference (or the parent)
    /// points at, kept current.
    public convenience init<Model: SyncModel, Target: SyncModel>(
        _ store: SyncStore, _ query: Query<Model>, with keyPath: KeyPath<Model, RecordReference<Target>?> & Sendable
    ) where Value == [Joined<Model, Target>] {
        self.init(store.observe(query, with: keyPath), none: []) { try store.fetch(query, with: keyPath) }
    }

    /// The models `query` keeps, each with the record the required reference points at, kept
    /// current.
    public convenience init<Model: SyncModel, Target: SyncModel>(
        _ store: SyncStore, _ query: Query<Model>, with keyPath: KeyPath<Model, RecordReference<Target>> & Sendable
    ) where Value == [Joined<Model, Target>] {
        self.init(store.observe(query, with: keyPath), none: []) { try store.fetch(query, with: keyPath) }
    }

    /// The value read now by `read` (`none` if that fails), then followed in `changes`.
    init(_ changes: AsyncThrowingStream<Value, any Error>, none: Value, read: () throws -> Value) {
        do {
            value = try read()
        } catch {
            value = none
            self.error = error
        }
        following = .following(changes, apply: { [weak self] value in
            if self?.value != value { self?.value = value }
        }, failed: { [weak self] error in self?.error = error })
    }
}
