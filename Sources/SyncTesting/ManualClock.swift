import Foundation
import SyncCore

/// A clock that moves only when told to: tests and simulations advance it, and every wait due by
/// then ends. Nothing ever sleeps for real.
public final class ManualClock: SyncClock, @unchecked Sendable {
    private struct Sleeper {
        var deadline: Date
        var continuation: CheckedContinuation<Void, Error>
    }

    private struct State {
        var now: Date
        var sleepers: [UUID: Sleeper] = [:]
    }

    private let state: Locked<State>

    /// A clock standing at `start`, which moves only when `advance(by:)` is called.
    public init(start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        state = Locked(State(now: start))
    }

    /// The clock's current time.
    public var now: Date { state.withLock { $0.now } }

    /// Moves time forward and wakes every sleeper whose deadline has come.
    public func advance(by seconds: TimeInterval) {
        let due: [CheckedContinuation<Void, Error>] = state.withLock { state in
            state.now += seconds
            let ready = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in ready.keys { state.sleepers[id] = nil }
            return ready.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    /// The earliest deadline anyone waits for: what a simulation advances to next.
    public var nextDeadline: Date? {
        state.withLock { $0.sleepers.values.map(\.deadline).min() }
    }

    /// How many tasks are waiting on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Returns once the clock has been advanced to `deadline`; throws when the task is cancelled.
    public func sleep(until deadline: Date) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                // A cancellation that came before the sleeper was stored found nothing to cancel.
                let cancelled = Task.isCancelled
                let resumeNow = state.withLock { state -> Bool in
                    if cancelled || deadline <= state.now { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if cancelled {
                    continuation.resume(throwing: CancellationError())
                } else if resumeNow {
                    continuation.resume()
                }
            }
        } onCancel: {
            let cancelled = state.withLock { $0.sleepers.removeValue(forKey: id) }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }
}
