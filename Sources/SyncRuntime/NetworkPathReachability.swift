// Apple platforms only: the Network framework's path monitor does not exist elsewhere, where an
// engine has no reachability unless the app hands it one.
#if canImport(Network)
import Foundation
import Network
import SyncCore
import SyncPorts

/// The system's network path monitor and the process's power and thermal state as the engine's
/// reachability (`NWPathMonitor`, `ProcessInfo`). Apple platforms only (the Network framework
/// exists nowhere else): elsewhere an app hands the engine its own `NetworkReachability`, or none.
public struct NetworkPathReachability: NetworkReachability {
    /// The monitor the current conditions are read from, running while this reachability lives.
    private let watch = PathWatch()

    /// A reachability over a new path monitor.
    public init() {}

    /// The monitor's paths as they change, each as whether it is usable.
    public func availability() -> AsyncStream<Bool> {
        AsyncStream { continuation in
            let monitor = NWPathMonitor()
            monitor.pathUpdateHandler = { path in continuation.yield(path.status == .satisfied) }
            continuation.onTermination = { _ in monitor.cancel() }
            monitor.start(queue: DispatchQueue(label: "syncgen.reachability"))
        }
    }

    /// The path the monitor last saw, Low Power Mode and the thermal state, now.
    public func currentConditions() -> DeviceConditions {
        Self.conditions(of: watch.monitor.currentPath)
    }

    /// The conditions each time the path, Low Power Mode or the thermal state changes.
    public func conditions() -> AsyncStream<DeviceConditions> {
        AsyncStream { continuation in
            let monitor = NWPathMonitor()
            let center = NotificationCenter.default
            // Apple: the thermal state must be read before its notification is observed.
            _ = ProcessInfo.processInfo.thermalState
            let observers = Locked([any NSObjectProtocol]())
            for name in [Notification.Name.NSProcessInfoPowerStateDidChange, ProcessInfo.thermalStateDidChangeNotification] {
                let observer = center.addObserver(forName: name, object: nil, queue: nil) { _ in
                    continuation.yield(Self.conditions(of: monitor.currentPath))
                }
                observers.withLock { $0.append(observer) }
            }
            monitor.pathUpdateHandler = { path in continuation.yield(Self.conditions(of: path)) }
            continuation.onTermination = { _ in
                monitor.cancel()
                for observer in observers.withLock({ $0 }) { center.removeObserver(observer) }
            }
            monitor.start(queue: DispatchQueue(label: "syncgen.reachability"))
        }
    }

    /// A path, with the process's power and thermal state.
    private static func conditions(of path: NWPath) -> DeviceConditions {
        var conditions: Set<DeviceCondition> = []
        if path.isConstrained { conditions.insert(.constrainedNetwork) }
        if path.isExpensive { conditions.insert(.expensiveNetwork) }
        if ProcessInfo.processInfo.isLowPowerModeEnabled { conditions.insert(.lowPowerMode) }
        switch ProcessInfo.processInfo.thermalState {
        case .serious, .critical: conditions.insert(.thermalPressure)
        default: break
        }
        return DeviceConditions(isNetworkAvailable: path.status == .satisfied, conditions: conditions)
    }

    /// A path monitor started with its owner and cancelled with it.
    private final class PathWatch: Sendable {
        let monitor = NWPathMonitor()

        init() {
            monitor.start(queue: DispatchQueue(label: "syncgen.reachability.current"))
        }

        deinit {
            monitor.cancel()
        }
    }
}
#endif

import SyncPorts

/// The reachability an engine has unless told otherwise: the network path monitor where the
/// Network framework exists, none elsewhere.
public enum PlatformReachability {
    /// `NetworkPathReachability()` where the Network framework exists, else nil.
    public static var `default`: (any NetworkReachability)? {
        #if canImport(Network)
        NetworkPathReachability()
        #else
        nil
        #endif
    }
}
