// CloudKit's stand-in exists only where CloudKit does not: on Apple platforms the gateway compiles
// against CloudKit itself, and this module is empty (docs/CloudKit.md). Every file of it is inside
// the same condition.
#if !canImport(CloudKit)
import Foundation
import SyncCore
import SyncLocalCloud

/// Where an account stands (Apple, `CKAccountStatus`).
public enum CKAccountStatus: Int, Sendable {
    case couldNotDetermine = 0
    case available = 1
    case restricted = 2
    case noAccount = 3
    case temporarilyUnavailable = 4
}

/// The code of the error an atomic `modifyRecords` throws when an item fails. Apple's async page
/// says only that it "throws an error ... when atomically is true and one or more of the specified
/// changes fail", and `CKError.h` that `partialFailure` is not returned from the newer result
/// blocks: the code is not settled. Whichever it is, the error carries each item's own error in
/// `partialErrorsByItemID`. The default is the harshest for a client that looks at the code: the
/// failing item's own code (`serverRecordChanged` for a conflict), never `partialFailure`.
package enum StandInAtomicFailure: Sendable {
    /// `CKError.partialFailure`, as the completion-block operations report it.
    case partialFailure
    /// `CKError.batchRequestFailed`: the request as a whole was not written.
    case batchRequestFailed
    /// The first failing item's own code (an item failed only because another did is skipped).
    case failingItemsCode
    /// `CKError.partialFailure` naming no item: Apple's async `modifyRecords` page says an atomic
    /// call "throws an error" and promises no map of the items' errors.
    case partialFailureNamingNoItem
}

/// An app's container (Apple, `CKContainer`): its three databases and the account. The stand-in's
/// is one LocalCloud device.
public final class CKContainer: NSObject, Sendable {
    let device: LocalCloudDevice
    let atomicFailure: StandInAtomicFailure
    private let accountObserver: UUID

    /// A container over a LocalCloud device: the stand-in's only way to make one (an app's
    /// container is CloudKit's `CKContainer(identifier:)`). The device's account changes are
    /// posted as the system posts them, `CKAccountChanged`, on `notificationCenter` (the default
    /// one, or one per device, so that devices in one process do not hear each other).
    /// `atomicFailure`: the code of the error an atomic save with a failing item throws, and
    /// whether it names the items' errors (`partialErrorsByItemID`).
    package init(device: LocalCloudDevice, notificationCenter: NotificationCenter = .default, atomicFailure: StandInAtomicFailure = .failingItemsCode) {
        self.device = device
        self.atomicFailure = atomicFailure
        let center = notificationCenter
        accountObserver = device.observeAccountChanges {
            center.post(name: .CKAccountChanged, object: nil)
        }
    }

    /// The container an app names (Apple, `init(identifier:)`). The stand-in's is a device of an
    /// in-memory LocalCloud this process keeps for the identifier, signed in to one account: enough
    /// for code written for CloudKit, such as docs/CloudKit.md's setup, to run here.
    public convenience init(identifier containerIdentifier: String) {
        self.init(device: StandInContainers.device(for: containerIdentifier))
    }

    deinit {
        device.stopObservingAccountChanges(accountObserver)
    }

    public var privateCloudDatabase: CKDatabase { database(with: .private) }
    public var sharedCloudDatabase: CKDatabase { database(with: .shared) }
    public var publicCloudDatabase: CKDatabase { database(with: .public) }

    public func database(with databaseScope: CKDatabase.Scope) -> CKDatabase {
        CKDatabase(device: device, databaseScope: databaseScope, atomicFailure: atomicFailure)
    }

    public func accountStatus() async throws -> CKAccountStatus {
        do {
            switch try await device.accountStatus() {
            case .available: return .available
            case .noAccount: return .noAccount
            case .restricted: return .restricted
            case .temporarilyUnavailable: return .temporarilyUnavailable
            }
        } catch {
            throw StandInErrors.ckError(error)
        }
    }

    public func shareParticipant(forEmailAddress email: String) async throws -> CKShare.Participant {
        try await participant(.emailAddress(email))
    }

    public func shareParticipant(forPhoneNumber phoneNumber: String) async throws -> CKShare.Participant {
        try await participant(.phoneNumber(phoneNumber))
    }

    public func shareParticipant(forUserRecordID userRecordID: CKRecord.ID) async throws -> CKShare.Participant {
        try await participant(.userRecordName(userRecordID.recordName))
    }

    /// Apple, `shareParticipants(forEmailAddresses:)`: one request for all the addresses, "a
    /// dictionary of fetched share participants" keyed by them, each a participant or "an error
    /// that describes why CloudKit can't fetch that share participant".
    public func shareParticipants(forEmailAddresses emails: [String]) async throws -> [String: Result<CKShare.Participant, any Error>] {
        try await participants(emails, lookup: ParticipantLookup.emailAddress)
    }

    public func shareParticipants(forPhoneNumbers phoneNumbers: [String]) async throws -> [String: Result<CKShare.Participant, any Error>] {
        try await participants(phoneNumbers, lookup: ParticipantLookup.phoneNumber)
    }

    public func shareParticipants(forUserRecordIDs userRecordIDs: [CKRecord.ID]) async throws -> [CKRecord.ID: Result<CKShare.Participant, any Error>] {
        try await participants(userRecordIDs) { .userRecordName($0.recordName) }
    }

    private func participant(_ lookup: ParticipantLookup) async throws -> CKShare.Participant {
        try await participants([lookup]) { $0 }[lookup]!.get()
    }

    /// People found in one request, by the keys the caller gave.
    private func participants<Key: Hashable>(_ keys: [Key], lookup: (Key) -> ParticipantLookup) async throws -> [Key: Result<CKShare.Participant, any Error>] {
        let found: [ParticipantLookup: Result<ShareParticipant, CloudError>]
        do {
            found = try await device.participants(for: keys.map(lookup))
        } catch {
            throw StandInErrors.ckError(error)
        }
        var answers: [Key: Result<CKShare.Participant, any Error>] = [:]
        for key in keys {
            switch found[lookup(key)] {
            case .success(let participant): answers[key] = .success(StandInShares.ckParticipant(participant))
            case .failure(let error): answers[key] = .failure(StandInErrors.ckError(error))
            case nil: answers[key] = .failure(CKError(.internalError))
            }
        }
        return answers
    }

    public func shareMetadata(for url: URL) async throws -> CKShare.Metadata {
        do {
            return StandInShares.metadata(try await device.shareMetadata(for: url))
        } catch {
            throw StandInErrors.ckError(error)
        }
    }

    /// Apple, `accept(_:)`: returns "the accepted share", which is the share as the server holds
    /// it once the user is in it (the user accepted among its participants), not the metadata's.
    public func accept(_ metadata: CKShare.Metadata) async throws -> CKShare {
        let accepted = StandInShares.shareMetadata(metadata)
        do throws(CloudError) {
            try await device.acceptShare(accepted)
            let id = RecordID(recordName: accepted.shareID.recordName, zoneID: ZoneID(zoneName: accepted.shareID.zoneID.zoneName, ownerName: accepted.ownerName))
            guard let share = try await device.fetchShares([id], in: .shared)[id] else { throw CloudError(.internalError, "the accepted share could not be read") }
            return StandInShares.ckShare(try share.get())
        } catch {
            throw StandInErrors.ckError(error)
        }
    }

    public func userRecordID() async throws -> CKRecord.ID {
        do {
            return CKRecord.ID(recordName: try await device.userRecordName(), zoneID: CKRecordZone.ID.default)
        } catch {
            throw StandInErrors.ckError(error)
        }
    }
}

extension Notification.Name {
    /// Posted when the device's iCloud account changes (Apple, `Notification.Name.CKAccountChanged`).
    /// The stand-in's containers post it for their LocalCloud device's sign-ins and status changes.
    public static let CKAccountChanged: NSNotification.Name = Notification.Name("CKAccountNotificationChanged")
}

/// The LocalCloud devices behind `CKContainer(identifier:)`: one per identifier, for the process.
private enum StandInContainers {
    static let devices = Locked<[String: LocalCloudDevice]>([:])

    static func device(for identifier: String) -> LocalCloudDevice {
        devices.withLock { devices in
            if let device = devices[identifier] { return device }
            // An in-memory SQLite database opens unless the process is out of memory, and
            // `init(identifier:)` cannot throw, as Apple declares it.
            guard let device = try? LocalCloud.inMemory().device(identifier, account: "stand-in user") else {
                fatalError("CKContainer(identifier: \(identifier)): the stand-in could not open an in-memory LocalCloud")
            }
            devices[identifier] = device
            return device
        }
    }
}
#endif
