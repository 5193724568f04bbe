import Foundation
import SyncCore

/// The engine's current status and its subscribers: each gets the status at once, then every
/// change of it (the newest, for a subscriber slower than the changes).
final class StatusHub: Sendable {
    private struct State {
        var status = EngineStatus()
        var subscribers: [UUID: AsyncStream<EngineStatus>.Continuation] = [:]
    }

    private let state = Locked(State())

    var status: EngineStatus { state.withLock { $0.status } }

    func update(_ change: (EngineStatus) -> EngineStatus) {
        let (changed, subscribers) = state.withLock { state -> (EngineStatus?, [AsyncStream<EngineStatus>.Continuation]) in
            let next = change(state.status)
            guard next != state.status else { return (nil, []) }
            state.status = next
            return (next, Array(state.subscribers.values))
        }
        if let changed { for subscriber in subscribers { subscriber.yield(changed) } }
    }

    func stream() -> AsyncStream<EngineStatus> {
        let (stream, continuation) = AsyncStream<EngineStatus>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        state.withLock { state in
            state.subscribers[id] = continuation
            continuation.yield(state.status)
        }
        continuation.onTermination = { [state] _ in _ = state.withLock { $0.subscribers.removeValue(forKey: id) } }
        return stream
    }
}
