// expect: cannot find type 'LocalStorePort' in scope
// The engine over a bare store port is this package's own (its tests); an app hands it a SyncStore.
import SyncRuntime

func engine(over store: any LocalStorePort) {}
