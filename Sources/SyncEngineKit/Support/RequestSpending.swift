import Foundation
import SyncCore

/// What the engine has spent of its `RequestBudget`: the times of the requests that wrote each
/// database within the last interval. Shared by every pass of the engine (a budget is not per pass).
final class RequestSpending: Sendable {
    private let budget: RequestBudget?
    private let sent = Locked<[DatabaseScope: [Date]]>([:])

    init(_ budget: RequestBudget?) {
        self.budget = budget
    }

    /// Counts a request to `scope` at `now`, or throws, counting nothing, when the budget has no
    /// room: CloudKit's rate limit, waiting until the oldest request counted leaves the interval.
    func spend(_ scope: DatabaseScope, now: Date) throws(SyncError) {
        guard let budget else { return }
        let wait = sent.withLock { sent -> TimeInterval? in
            var times = sent[scope, default: []].filter { $0 > now.addingTimeInterval(-budget.interval) }
            defer { sent[scope] = times }
            guard times.count >= budget.requests else {
                times.append(now)
                return nil
            }
            return times[times.count - budget.requests].addingTimeInterval(budget.interval).timeIntervalSince(now)
        }
        if let wait {
            throw .cloud(CloudError(.requestRateLimited, "this engine's request budget for the \(scope) database is spent (\(budget.requests) in \(Int(budget.interval)) s)", retryAfter: max(wait, 0.001)))
        }
    }
}
