import Foundation
import SyncCore

/// What the store tells once a transaction commits, each stream named for who reads it: the
/// engine's scheduler hears of the app's writes (`changes()`), screens and observers of models
/// hear of every commit that changed one (`commits()`, what `observe` follows), and observers of
/// a record's sync status hear of every write, bookkeeping included (`writes()`).
extension SyncStore {
    /// Fires after every committed write not made by the sync engine. Cheap to over-trigger: the
    /// engine debounces it and reads the history to see what is really pending.
    public func changes() -> AsyncStream<Void> {
        Self.subscribe(to: schedulerListeners)
    }

    func notifyChange() {
        Self.publish((), to: schedulerListeners)
    }

    /// Every committed transaction that wrote anything, bookkeeping included.
    func writes() -> AsyncStream<Void> {
        Self.subscribe(to: statusObservers)
    }

    /// Every committed transaction that saved or deleted a model, whoever wrote it: the app, or
    /// the sync engine applying pulled, merged or deleted records (`StoreChange.isFromSync`).
    /// One element per transaction, naming each record it changed, in order; none is dropped,
    /// so a list can be updated in place from them.
    public func commits() -> AsyncStream<StoreCommit> {
        Self.subscribe(to: modelObservers, buffering: .unbounded)
    }

    /// A new stream of what is published to `streams`; a signal keeps only its newest element.
    static func subscribe<Element: Sendable>(
        to streams: Locked<[UUID: AsyncStream<Element>.Continuation]>,
        buffering policy: AsyncStream<Element>.Continuation.BufferingPolicy = .bufferingNewest(1)
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: policy)
        let id = UUID()
        streams.withLock { $0[id] = continuation }
        continuation.onTermination = { _ in _ = streams.withLock { $0.removeValue(forKey: id) } }
        return stream
    }

    static func publish<Element: Sendable>(_ element: Element, to streams: Locked<[UUID: AsyncStream<Element>.Continuation]>) {
        for continuation in streams.withLock({ Array($0.values) }) { continuation.yield(element) }
    }
}
