// expect: 'transaction' is inaccessible due to 'package' protection level
// The engine's transactions, where pulled records and server versions are written, are not the app's.
import SyncRuntime

func misuse(_ store: SyncStore) throws {
    _ = try store.transaction { _ in 0 }
}
