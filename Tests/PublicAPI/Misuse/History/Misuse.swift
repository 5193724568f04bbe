// expect: cannot find type 'HistoryEntry' in scope
// The store's history is the engine's queue of changes to push.
import SyncRuntime

let entry: HistoryEntry? = nil
