#if canImport(CloudKit)
import CloudKit
#else
import CloudKitStandIn
#endif
import Foundation
import SyncCore

/// CloudKit's errors as the port's: every code keeps its number (`CloudError.cloudKitCode`, a
/// code this version does not know as `unrecognized`), with what comes with it: the wait
/// (`retryAfterSeconds`), a conflict's three records, and a partial failure's error per item.
enum CloudKitErrors {
    static func cloudError(_ error: any Error) -> CloudError {
        if error is CancellationError {
            return CloudError(.operationCancelled, "the request was cancelled")
        }
        let nsError = error as NSError
        guard nsError.domain == CKErrorDomain, let ckError = error as? CKError else {
            // Not CloudKit's (a Foundation or system error reaching through): kept in the message,
            // never mistaken for one of CloudKit's codes.
            return CloudError(.unrecognized, "\(nsError.domain) \(nsError.code): \(nsError.localizedDescription)")
        }
        var cloudError = CloudError(cloudKitCode: ckError.errorCode, nsError.localizedDescription, retryAfter: ckError.retryAfterSeconds)
        cloudError.userDidResetEncryptedData = (nsError.userInfo[CKErrorUserDidResetEncryptedDataKey] as? NSNumber)?.boolValue == true
        cloudError.serverRecord = ckError.serverRecord.flatMap { try? CloudKitRecords.syncRecord($0) }
        cloudError.clientRecord = ckError.clientRecord.flatMap { try? CloudKitRecords.syncRecord($0) }
        cloudError.ancestorRecord = ckError.ancestorRecord.flatMap { try? CloudKitRecords.syncRecord($0) }
        for (key, itemError) in ckError.partialErrorsByItemID ?? [:] {
            guard let id = key.base as? CKRecord.ID else { continue }
            cloudError.itemErrors[CloudKitRecords.recordID(id)] = Self.cloudError(itemError)
        }
        return cloudError
    }
}
