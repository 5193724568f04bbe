/// The kind of device the app runs on, as far as the asset cache's default budget goes: a watch
/// holds less than a Mac (`SyncConfiguration.assetCacheLimit`).
public enum DevicePlatform: Sendable, Hashable, CaseIterable {
    case watchOS, iOS, tvOS, visionOS, macOS
    /// Any other: Linux, a server, a test.
    case other

    /// The platform this build runs on.
    public static var current: DevicePlatform {
        #if os(watchOS)
        .watchOS
        #elseif os(tvOS)
        .tvOS
        #elseif os(visionOS)
        .visionOS
        #elseif os(iOS)
        .iOS
        #elseif os(macOS)
        .macOS
        #else
        .other
        #endif
    }

    /// The asset cache's budget when the app names none, in bytes: 64 MB on a watch (its storage
    /// is small and shared by every app), 256 MB on a TV (the system purges a TV app's caches
    /// when it needs the room), 512 MB on a phone, a tablet or a headset, 2 GB on a Mac, 512 MB
    /// elsewhere.
    public var defaultAssetCacheLimit: Int64 {
        let megabyte: Int64 = 1024 * 1024
        switch self {
        case .watchOS: return 64 * megabyte
        case .tvOS: return 256 * megabyte
        case .iOS, .visionOS, .other: return 512 * megabyte
        case .macOS: return 2048 * megabyte
        }
    }
}
