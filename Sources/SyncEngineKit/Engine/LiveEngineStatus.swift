import Foundation
import Observation
import SyncCore

/// The engine's status that stays current, for a status line or an "offline" banner: `status`
/// changes as passes start, move through their phases and end, and as the network goes and comes
/// back. On the main actor, observable; stops when released.
@MainActor @Observable
public final class LiveEngineStatus {
    /// What the engine is doing now, and how its last pass went.
    public private(set) var status: EngineStatus
    @ObservationIgnored private var following: FollowingTask?

    /// The engine's status, kept current.
    public init(_ engine: SyncEngine) {
        status = engine.status
        let updates = engine.statusUpdates()
        following = FollowingTask(Task { [weak self] in
            for await status in updates where self?.status != status { self?.status = status }
        })
    }
}
