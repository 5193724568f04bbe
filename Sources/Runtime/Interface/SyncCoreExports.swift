// The rules module comes with the runtime: an app imports SyncRuntime alone.
@_exported import SyncCore
