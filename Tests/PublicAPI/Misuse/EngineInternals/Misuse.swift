// expect: 'context' is inaccessible due to 'internal' protection level
// What every use case works with (the store port, the gateway, the registry) stays inside the engine.
import SyncRuntime

func misuse(_ engine: SyncEngine) {
    _ = engine.context
}
