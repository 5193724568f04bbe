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
    public init() {}

    public var now: Date { Date() }

    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSince(now)
        if seconds > 0 { try await Task.sleep(for: .seconds(seconds)) }
    }
}
