import Foundation
import Observation
import SyncCore

/// A query's results that stay current, for a view to hold: `results` changes after every
/// committed transaction that saves or deletes a model of the type, whoever wrote it (the app, or
/// the sync engine applying what it pulled). Observable (the Observation module), so a SwiftUI
/// view that reads `results` redraws when they change. The results are read once at once, so a
/// view's first frame has them; the query stops when the object is released.
///
/// ```swift
/// struct NotesList: View {
///     @State private var notes = LiveQuery(store, Query<Note>().sorted(by: \.title))
///     var body: some View {
///         List(notes.results) { note in Text(note.title) }
///     }
/// }
/// ```
@MainActor @Observable
public final class LiveQuery<Model: SyncModel> {
    /// The models that match, in order, as of the last commit that changed one of the type.
    public private(set) var results: [Model]
    /// Why the results stopped following the store: a read that failed. Nil while they follow it.
    public private(set) var error: (any Error)?
    @ObservationIgnored private var following: FollowingTask?

    /// The models of `type` that `isIncluded` keeps, sorted by `areInIncreasingOrder`, kept current.
    public convenience init(
        _ store: SyncStore, _ type: Model.Type = Model.self,
        where isIncluded: (@Sendable (Model) -> Bool)? = nil,
        sortedBy areInIncreasingOrder: (@Sendable (Model, Model) -> Bool)? = nil
    ) {
        self.init(store.observe(type, where: isIncluded, sortedBy: areInIncreasingOrder)) {
            try store.fetchAll(type, where: isIncluded, sortedBy: areInIncreasingOrder)
        }
    }

    /// The query's results, kept current.
    public convenience init(_ store: SyncStore, _ query: Query<Model>) {
        self.init(store.observe(query)) { try store.fetch(query) }
    }

    /// Results read now by `read`, then followed in `changes`.
    private init(_ changes: AsyncThrowingStream<[Model], any Error>, read: () throws -> [Model]) {
        do {
            results = try read()
        } catch {
            results = []
            self.error = error
        }
        following = .following(changes, apply: { [weak self] results in
            if self?.results != results { self?.results = results }
        }, failed: { [weak self] error in self?.error = error })
    }
}
