// expect: 'encodeStoredFields' is inaccessible due to '@_spi' protection level
// The bridge (the field table, its builders, the directions it drives) is the runtime's: an app's
// own code, in the very module its models are generated into, cannot call it.
import SyncRuntime

func misuse(_ note: Note) {
    _ = note.encodeStoredFields()
}
