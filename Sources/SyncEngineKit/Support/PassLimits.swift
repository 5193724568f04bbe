import Foundation
import SyncCore

/// The bound of the running pass: its deadline, or the app's request to end it. Checked before
/// every request that starts new work (`CloudRequests`): a pass stops between requests, where
/// everything it did is committed, never inside a transaction; the account check that comes
/// before a fetched page is applied still goes, so a page fetched is a page kept.
final class PassLimits: Sendable {
    private struct State {
        var deadline: Date?
        var stopRequested = false
        var stopped = false
    }

    private let state = Locked(State())

    func begin(deadline: Date?) {
        state.withLock { $0 = State(deadline: deadline) }
    }

    /// Ends the running pass before its next request.
    func requestStop() {
        state.withLock { $0.stopRequested = true }
    }

    /// Whether the running pass was stopped by its bound.
    var stopped: Bool { state.withLock { $0.stopped } }

    /// Throws when the pass is past its bound: the request is not sent.
    func check(now: Date) throws(SyncError) {
        let past = state.withLock { state -> Bool in
            let past = state.stopRequested || state.deadline.map { now >= $0 } == true
            if past { state.stopped = true }
            return past
        }
        if past { throw .cloud(CloudError(.operationCancelled, "the pass reached its deadline, or the app ended it")) }
    }
}
