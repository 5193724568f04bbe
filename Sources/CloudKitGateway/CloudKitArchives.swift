#if canImport(CloudKit)
import CloudKit
#else
import CloudKitStandIn
#endif
import Foundation
import SyncCore
import SyncPorts

/// CloudKit's change tokens as the port's opaque archives: `CKServerChangeToken` has no usable
/// initialiser, so it travels archived (`NSSecureCoding`) and is unarchived to be handed back.
enum CloudKitArchives {
    static func changeToken(_ token: CKServerChangeToken) throws(CloudError) -> ChangeToken {
        do {
            return ChangeToken(archive: try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true))
        } catch {
            throw CloudError(.internalError, "a change token could not be archived: \(error)")
        }
    }

    /// The token an archive holds; a token of another cloud (LocalCloud's, kept by a store that
    /// synced with it) is refused, and the engine then fetches from scratch.
    static func serverChangeToken(_ token: ChangeToken) throws(CloudError) -> CKServerChangeToken {
        let unarchived = try? NSKeyedUnarchiver.unarchivedObject(ofClass: CKServerChangeToken.self, from: token.archive)
        guard let unarchived else { throw CloudError(.changeTokenExpired, "the change token was not archived by CloudKit") }
        return unarchived
    }

    static func queryCursor(_ cursor: CKQueryOperation.Cursor) throws(CloudError) -> QueryCursor {
        do {
            return QueryCursor(archive: try NSKeyedArchiver.archivedData(withRootObject: cursor, requiringSecureCoding: true))
        } catch {
            throw CloudError(.internalError, "a query cursor could not be archived: \(error)")
        }
    }

    static func queryCursor(_ cursor: QueryCursor) throws(CloudError) -> CKQueryOperation.Cursor {
        guard let unarchived = try? NSKeyedUnarchiver.unarchivedObject(ofClass: CKQueryOperation.Cursor.self, from: cursor.archive) else {
            throw CloudError(.invalidArguments, "the query cursor was not archived by CloudKit")
        }
        return unarchived
    }
}
