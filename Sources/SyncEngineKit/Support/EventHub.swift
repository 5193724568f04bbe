import SyncCore
import SyncPorts
/// Hands every event to every subscriber. A subscriber that comes late first gets the latest
/// event, so whenever an app starts listening it learns where sync stands.
final class EventHub: Sendable {
    private struct State {
        var subscribers: [UInt64: AsyncStream<SyncEvent>.Continuation] = [:]
        var observers: [@Sendable (SyncEvent) -> Void] = []
        var nextID: UInt64 = 0
        var latest: SyncEvent?
        var pulledChanges = 0
    }

    private let state = Locked(State())

    func publish(_ event: SyncEvent) {
        let (subscribers, observers) = state.withLock { state in
            state.latest = event
            if case .pullProgress(_, _, let records, let deletions) = event { state.pulledChanges += records + deletions }
            return (Array(state.subscribers.values), state.observers)
        }
        for observer in observers { observer(event) }
        for subscriber in subscribers { subscriber.yield(event) }
    }

    /// Calls `observer` with every event, synchronously, as it is published (for tests and for
    /// bridging into other event systems).
    func observe(_ observer: @escaping @Sendable (SyncEvent) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Records and deletions pulled so far (what `pullProgress` events reported): whether a pass
    /// brought anything in.
    var pulledChanges: Int { state.withLock { $0.pulledChanges } }

    func stream() -> AsyncStream<SyncEvent> {
        let (stream, continuation) = AsyncStream<SyncEvent>.makeStream()
        let id = state.withLock { state in
            state.nextID += 1
            state.subscribers[state.nextID] = continuation
            if let latest = state.latest { continuation.yield(latest) }
            return state.nextID
        }
        continuation.onTermination = { [state] _ in _ = state.withLock { $0.subscribers.removeValue(forKey: id) } }
        return stream
    }
}
