// expect: cannot find type 'SyncgenRuntimeAPIVersion1' in scope
// The version lock is generated code's hook (an SPI the generated file imports), not app API.
import SyncRuntime

private struct VersionCheck: SyncgenRuntimeAPIVersion1 {}
