// expect: cannot find type 'StoreTransaction' in scope
// The engine's view of the store (applyPulled, setServerRecord, commitHistoryToken, purgeEverything) does not exist for an app.
import SyncRuntime

func misuse(_ transaction: any StoreTransaction) throws {
    try transaction.purgeEverything()
}
