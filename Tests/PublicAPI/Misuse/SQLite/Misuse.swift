// expect: cannot find 'SQLiteDatabase' in scope
// The SQLite wrapper is the store's, never the app's.
import SyncRuntime

let database = SQLiteDatabase.self
