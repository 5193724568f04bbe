import Foundation

/// The time the runtime and LocalCloud read, injected so tests decide it. Waiting is on this
/// clock too: under `ManualClock` a wait ends when the test advances time, never by sleeping.
public protocol SyncClock: Sendable {
    var now: Date { get }
    /// Suspends until the clock reads `deadline` or later (or the task is cancelled).
    func sleep(until deadline: Date) async throws
}

/// The real clock.
public struct SystemClock: SyncClock {
    /// The system clock.
    public init() {}

    /// The current time.
    public var now: Date { Date() }

    /// Waits until `deadline`, in real time; throws when the task is cancelled.
    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSince(now)
        if seconds > 0 { try await Task.sleep(for: .seconds(seconds)) }
    }
}
