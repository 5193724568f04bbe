import Foundation
@testable import SyncLocalCloud
import SyncCore
import Testing

/// Several devices' passes run at once, one request at a time, in an order the test chooses: each
/// request of a device's pass stops before it goes out and again after the cloud answered (the
/// answer not yet read by the engine), until the test lets it on. So a test puts another device's
/// request, or an app's write, between any two of them, as real devices do; and a device killed
/// where its pass stopped has committed what it committed, and nothing after (its pass never goes
/// on until the end of the test, when `releaseKilled` lets it end against a world nobody checks).
///
/// Only one pass moves at a time (each call waits for it to stop again), so a seed always gives
/// the same run.
final class Interleaving: Sendable {
    /// Where a device's pass stopped.
    enum Point: Sendable, Equatable, CustomStringConvertible {
        case before(CloudRequestKind)
        /// The cloud has answered (and applied a write): the engine has not read the answer.
        case after(CloudRequestKind)

        var description: String {
            switch self {
            case .before(let kind): "before \(kind)"
            case .after(let kind): "after \(kind)"
            }
        }
    }

    private struct Stop {
        var point: Point
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct Pass {
        var id: Int
        var task: Task<Void, Never>?
    }

    private struct State {
        var stopped: [String: Stop] = [:]
        var running: [String: Pass] = [:]
        var passes = 0
        /// Passes of killed devices, stopped for good until `releaseKilled`.
        var killed: [(stop: Stop?, task: Task<Void, Never>?)] = []
        /// The devices whose requests stop; the others' go through (the calm after the storm).
        var stepping: Set<String> = []
    }

    private let state = Locked(State())

    /// The requests that stop: those that read or write records. (The account checks around
    /// each request write nothing: stopping at them only makes runs longer.)
    static let steppedKinds: [CloudRequestKind] = [.modify, .fetchRecords, .fetchDatabaseChanges, .fetchZoneChanges, .query]

    /// Makes `device`'s requests stop at each point (those of every device of its name, until
    /// `stopStepping`).
    func attach(_ device: SyncWorld.Device) {
        let name = device.name
        state.withLock { _ = $0.stepping.insert(name) }
        device.gateway.hooks.withLock { hooks in
            for kind in Self.steppedKinds {
                hooks.before[kind] = { [self] in await stop(name, at: .before(kind)) }
                hooks.after[kind] = { [self] in await stop(name, at: .after(kind)) }
            }
        }
    }

    private func stop(_ device: String, at point: Point) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let goOn = state.withLock { state -> Bool in
                guard state.stepping.contains(device) else { return true }
                state.stopped[device] = Stop(point: point, continuation: continuation)
                return false
            }
            if goOn { continuation.resume() }
        }
    }

    /// Runs `pass` as `device`'s pass, in a task of its own, until it stops at its first request.
    func start(_ device: String, _ pass: @escaping @Sendable () async -> Void) async {
        let id = state.withLock { current in
            current.passes += 1
            current.running[device] = Pass(id: current.passes)
            return current.passes
        }
        let task = Task { [self] in
            await pass()
            state.withLock { current in
                if current.running[device]?.id == id { current.running[device] = nil }
            }
        }
        state.withLock { current in
            if current.running[device]?.id == id { current.running[device]?.task = task }
        }
        await settle()
    }

    /// Whether a pass of `device` runs (stopped at a request).
    func isRunning(_ device: String) -> Bool {
        state.withLock { $0.running[device] != nil }
    }

    /// Where `device`'s pass stopped; nil when none runs.
    func point(of device: String) -> Point? {
        state.withLock { $0.stopped[device]?.point }
    }

    /// Lets `device`'s pass go on to its next stop, or to its end.
    func resume(_ device: String) async {
        let stop = state.withLock { $0.stopped.removeValue(forKey: device) }
        stop?.continuation.resume()
        await settle()
    }

    /// `device`'s pass never goes on: the device was killed where it stopped.
    func kill(_ device: String) {
        state.withLock { state in
            let stop = state.stopped.removeValue(forKey: device)
            let pass = state.running.removeValue(forKey: device)
            state.killed.append((stop, pass?.task))
        }
    }

    /// The requests of `device` (nil: of every device) stop no more; its pass stopped now goes
    /// on to its end.
    func stopStepping(_ device: String? = nil) async {
        let stops = state.withLock { state in
            let names = device.map { [$0] } ?? Array(state.stepping)
            state.stepping.subtract(names)
            return names.compactMap { state.stopped.removeValue(forKey: $0) }
        }
        for stop in stops { stop.continuation.resume() }
        let ended = await eventually { state.withLock { state in state.running.keys.allSatisfy { device != nil && $0 != device } } }
        if !ended { Issue.record("a pass did not end") }
    }

    /// Lets the passes of killed devices end, once nothing is checked any more (nothing stops
    /// from now on), so that what they hold, their store files among it, is let go.
    func releaseKilled() async {
        await stopStepping()
        let killed = state.withLock { state in
            defer { state.killed = [] }
            return state.killed
        }
        for pass in killed {
            pass.stop?.continuation.resume()
            await pass.task?.value
        }
    }

    /// Waits until every pass running is stopped at a request, or has ended.
    private func settle() async {
        let settled = await eventually {
            state.withLock { state in state.running.keys.allSatisfy { state.stopped[$0] != nil } }
        }
        if !settled { Issue.record("a pass neither stopped at a request nor ended") }
    }
}
