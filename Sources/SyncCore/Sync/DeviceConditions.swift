/// A state of the device in which large transfers should wait: what the system says of its power,
/// its heat and the network's path. Asset uploads and downloads wait while one the configuration
/// names holds (`SyncConfiguration.assetTransfersWaitFor`); record changes always go.
public enum DeviceCondition: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Low Power Mode is on (`ProcessInfo.isLowPowerModeEnabled`).
    case lowPowerMode
    /// The network's path is in Low Data Mode (`NWPath.isConstrained`).
    case constrainedNetwork
    /// The network's path is one the user pays for by use: cellular, a personal hotspot
    /// (`NWPath.isExpensive`).
    case expensiveNetwork
    /// The device is hot: its thermal state is serious or critical (`ProcessInfo.thermalState`).
    case thermalPressure

    public var description: String {
        switch self {
        case .lowPowerMode: "Low Power Mode"
        case .constrainedNetwork: "Low Data Mode"
        case .expensiveNetwork: "a network paid for by use"
        case .thermalPressure: "the device's heat"
        }
    }
}

/// What the device says of its network and its state, as the reachability port reads it.
public struct DeviceConditions: Sendable, Hashable {
    /// Whether a usable network path exists.
    public var isNetworkAvailable: Bool
    /// The conditions that hold now.
    public var conditions: Set<DeviceCondition>

    /// The network there, and no condition: what a reachability that reads nothing more says.
    public static let unrestricted = DeviceConditions(isNetworkAvailable: true, conditions: [])

    /// The network's state, with the conditions that hold.
    public init(isNetworkAvailable: Bool, conditions: Set<DeviceCondition>) {
        self.isNetworkAvailable = isNetworkAvailable
        self.conditions = conditions
    }
}
