/// Whether the device can reach the network, as the system says: a running engine starts a pass
/// as soon as a path comes back, instead of waiting out its retry. On Apple platforms the
/// network path monitor (SyncRuntime's `NetworkPathReachability`); elsewhere none, or a fake in
/// tests.
public protocol NetworkReachability: Sendable {
    /// Whether a usable path exists: the current answer first, then each change.
    func availability() -> AsyncStream<Bool>
}
