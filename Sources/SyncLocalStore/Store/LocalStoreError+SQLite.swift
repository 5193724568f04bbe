import Foundation
import SyncCore
import SyncStorage

extension LocalStoreError {
    /// SQLite's primary result code, as the reason a store failed.
    init(_ error: SQLiteError) {
        let reason: Reason = switch error.primaryCode {
        case .busy, .locked: .busy
        case .full: .full
        case .readOnly: .readOnly
        case .corrupt, .notADatabase: .corrupt
        default: .other
        }
        self.init(reason, error.description)
    }
}
