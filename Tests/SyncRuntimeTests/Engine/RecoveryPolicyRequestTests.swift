import Foundation
import Testing
@testable import SyncEngineKit
import SyncCore
import SyncPorts

/// What a cloud error means for the request that met it (`RecoveryPolicy+Requests.swift`): the
/// one place phases learn an error's meaning, since they never test a code (.ci/run). Each table
/// covers every code, so a code that changes meaning fails here before a phase acts on it.
@Suite("Recovery policy: each kind of request")
struct RecoveryPolicyRequestTests {
    /// Breaking it: counting `zoneNotFound` as the item gone makes the pull forget a record that
    /// could not be read only because its zone was out of reach.
    @Test func anItemsAnswerNamesWhatItsErrorSays() {
        let named: [CloudErrorCode: String] = [
            .serverRecordChanged: "conflict", .unknownItem: "gone", .permissionFailure: "notAllowed",
            .zoneNotFound: "zoneGone", .userDeletedZone: "zoneGone",
        ]
        func name(_ answer: RecoveryPolicy.ItemAnswer<Never>) -> String {
            switch answer {
            case .conflict: "conflict"
            case .gone: "gone"
            case .notAllowed: "notAllowed"
            case .zoneGone: "zoneGone"
            case .failed: "failed"
            }
        }
        for code in CloudErrorCode.allCases {
            #expect(name(RecoveryPolicy.answer(to: CloudError(code))) == named[code] ?? "failed", "\(code)")
        }
        let id = RecordID(recordName: "n", zoneID: ZoneID(zoneName: "Z"))
        let missing: Result<SyncRecord, CloudError>? = nil
        #expect(RecoveryPolicy.answer(missing, for: id).failure?.code == .serviceUnavailable, "an item the results leave out is asked again")
    }

    /// Breaking it: a private zone's `permissionFailure` read as the zone gone would queue the
    /// user's whole zone to go up again; a database feed's `zoneNotFound` has no zone to lose.
    @Test func aFailedReadOfAZoneSaysWhetherTheZoneIsGone() {
        for code in CloudErrorCode.allCases {
            let error = CloudError(code)
            #expect(RecoveryPolicy.readFailure(error, zoneIn: nil) == (code == .changeTokenExpired ? .startOver : .fail), "\(code)")
            let privateAnswer: RecoveryPolicy.ReadFailure = switch code {
            case .changeTokenExpired: .startOver
            case .zoneNotFound: .zoneGone(.deleted)
            case .userDeletedZone: .zoneGone(.purged)
            default: .fail
            }
            #expect(RecoveryPolicy.readFailure(error, zoneIn: .private) == privateAnswer, "\(code)")
            let sharedAnswer: RecoveryPolicy.ReadFailure = code == .permissionFailure || code == .zoneNotFound ? .zoneGone(.deleted) : privateAnswer
            #expect(RecoveryPolicy.readFailure(error, zoneIn: .shared) == sharedAnswer, "\(code)")
        }
        var reset = CloudError(.zoneNotFound)
        reset.userDidResetEncryptedData = true
        #expect(RecoveryPolicy.readFailure(reset, zoneIn: .private) == .zoneGone(.encryptedDataReset))
    }

    /// Breaking it: a lost reply read as never sent forgets the saves kept as sent, and a later
    /// merge starts from a version older than the one that landed (trap T21.22).
    /// A zone's own failure spares the pull's other zones; the network's, the account's, the
    /// service's and the store's do not (every zone would meet them). Breaking it (a network
    /// failure counted as the zone's): a pass offline asks for every zone, one failure each.
    @Test func aZonesOwnFailureSparesTheOtherZones() {
        let everyZones: Set<CloudErrorCode> = [
            .networkUnavailable, .networkFailure, .notAuthenticated, .serviceUnavailable, .requestRateLimited,
            .accountTemporarilyUnavailable, .managedAccountRestricted, .badContainer, .missingEntitlement, .operationCancelled,
        ]
        for code in CloudErrorCode.allCases {
            #expect(RecoveryPolicy.sparesOtherZones(.cloud(CloudError(code))) == !everyZones.contains(code), "\(code)")
        }
        #expect(!RecoveryPolicy.sparesOtherZones(.localStore(LocalStoreError(.busy, "busy"))))
    }

    @Test func aPushRequestFailingWholeIsSentAgainInHalvesOnlyWhenThatCanHelp() {
        let expected: [CloudErrorCode: RecoveryPolicy.ModifyFailure] = [
            .serverResponseLost: .replyLost, .networkUnavailable: .neverSent, .limitExceeded: .refusedWhole,
            .invalidArguments: .refusedWhole, .partialFailure: .itemsUnnamed, .batchRequestFailed: .itemsUnnamed,
        ]
        for code in CloudErrorCode.allCases {
            #expect(RecoveryPolicy.modifyFailure(CloudError(code)) == expected[code] ?? .fail, "\(code)")
        }
        var named = CloudError(.partialFailure)
        named.itemErrors = [RecordID(recordName: "n", zoneID: ZoneID(zoneName: "Z")): CloudError(.unknownItem)]
        #expect(RecoveryPolicy.modifyFailure(named) == .fail, "items the error names are settled one by one")
    }

    /// Breaking it: no second attempt loses an asset's upload to a child saved under its record;
    /// a third attempt turns one conflict after another into a storm.
    @Test func aSaveAloneIsMadeAgainOnceOnAConflict() async throws {
        for (answers, attempts, saved) in [([CloudErrorCode.serverRecordChanged], 2, true), ([.serverRecordChanged, .serverRecordChanged], 2, false), ([.unknownItem], 1, false)] {
            var given: [CloudError?] = []
            let result = try await RecoveryPolicy.savingAgainOnConflict("the record") { (conflict: CloudError?) async throws(SyncError) -> Result<Int, CloudError>? in
                given.append(conflict)
                return given.count <= answers.count ? .failure(CloudError(answers[given.count - 1])) : .success(given.count)
            }
            #expect(given.count == attempts && given.first! == nil, "\(answers)")
            if attempts == 2 { #expect(given[1]?.code == .serverRecordChanged, "the second attempt is made from the conflict") }
            let succeeded = (try? result.get()) != nil
            #expect(succeeded == saved, "\(answers)")
        }
    }
}
