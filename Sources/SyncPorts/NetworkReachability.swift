import SyncCore

/// Whether the device can reach the network, and in which conditions, as the system says: a
/// running engine starts a pass as soon as a path comes back, instead of waiting out its retry,
/// and holds asset transfers back while a condition the configuration names holds (Low Power
/// Mode, Low Data Mode, a network paid for by use, heat). On Apple platforms the network path
/// monitor and the process's power and thermal state (SyncRuntime's `NetworkPathReachability`);
/// elsewhere none, or a fake in tests.
public protocol NetworkReachability: Sendable {
    /// Whether a usable path exists: the current answer first, then each change.
    func availability() -> AsyncStream<Bool>
    /// The conditions now, read as a pass comes to its asset transfers. By default: the network
    /// there, and no condition.
    func currentConditions() -> DeviceConditions
    /// The conditions: the current first, then each change. A running engine passes when the
    /// network comes back, or when the transfers held back may go. By default: `availability()`,
    /// with no condition.
    func conditions() -> AsyncStream<DeviceConditions>
}

extension NetworkReachability {
    public func currentConditions() -> DeviceConditions { .unrestricted }

    public func conditions() -> AsyncStream<DeviceConditions> {
        let paths = availability()
        return AsyncStream { continuation in
            let task = Task {
                for await available in paths { continuation.yield(DeviceConditions(isNetworkAvailable: available, conditions: [])) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
