// What an app imports: `import SyncRuntime` brings the rules (SyncCore), the ports a cloud
// implements (SyncPorts), the engine (SyncEngineKit) and the local store (SyncLocalStore).
@_exported import SyncCore
@_exported import SyncEngineKit
@_exported import SyncLocalStore
@_exported import SyncPorts
