// expect: 'sync' is inaccessible due to 'package' protection level
// A write stamped as the engine's would never be pushed: only the engine writes as itself.
import SyncRuntime

func misuse(_ store: SyncStore) throws {
    try store.write(author: .sync) { _ in }
}
