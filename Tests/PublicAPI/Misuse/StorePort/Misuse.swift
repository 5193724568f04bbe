// expect: cannot find type 'SyncStoreTransaction' in scope
// The engine's view of the store (applyPulled, setServerRecord, commitHistoryToken, purgeEverything) does not exist for an app.
import SyncRuntime

func misuse(_ transaction: any SyncStoreTransaction) throws {
    try transaction.purgeEverything()
}
