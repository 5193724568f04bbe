// Apple platforms only: the Network framework's path monitor does not exist elsewhere, where an
// engine has no reachability unless the app hands it one.
#if canImport(Network)
import Network
import SyncPorts

/// The system's network path monitor as the engine's reachability (`NWPathMonitor`). Apple
/// platforms only (the Network framework exists nowhere else): elsewhere an app hands the engine
/// its own `NetworkReachability`, or none.
public struct NetworkPathReachability: NetworkReachability {
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
