import Foundation
import Observation
import SyncCore

/// A query's results that stay current, for a view to hold: `results` changes after every
/// committed transaction that saves or deletes a model of the type, whoever wrote it (the app, or
/// the sync engine applying what it pulled). Observable (the Observation module), so a SwiftUI
/// view that reads `results` redraws when they change. The results are read once at once, so a
/// view's first frame has them; the query stops when the object is released. (`LiveValue` is the
/// same for counts, groups and models with what they point at.)
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
    public var results: [Model] { live.value }
    /// Why the results stopped following the store: a read that failed. Nil while they follow it.
    public var error: (any Error)? { live.error }
    /// The results, followed as any read is (an observer of `results` observes `live.value`).
    @ObservationIgnored private let live: LiveValue<[Model]>

    /// The models of `type` that `isIncluded` keeps, sorted by `areInIncreasingOrder`, kept current.
    public init(
        _ store: SyncStore, _ type: Model.Type = Model.self,
        where isIncluded: (@Sendable (Model) -> Bool)? = nil,
        sortedBy areInIncreasingOrder: (@Sendable (Model, Model) -> Bool)? = nil
    ) {
        live = LiveValue(store.observe(type, where: isIncluded, sortedBy: areInIncreasingOrder), none: []) {
            try store.fetchAll(type, where: isIncluded, sortedBy: areInIncreasingOrder)
        }
    }

    /// The query's results, kept current.
    public init(_ store: SyncStore, _ query: Query<Model>) {
        live = LiveValue(store.observe(query), none: []) { try store.fetch(query) }
    }
}
