import Foundation
@testable import SyncEngineKit
import SyncCore
import Testing

/// ``ShareLinkRule`` on its own: what the engine will not ask of a share open to its link
/// (Apple, `CKShare.h`: participants change only while the link is off; opening it removes the
/// pending ones). Breaking it: no check at all lets both saves through, and CloudKit withdraws
/// Carol's invitation without a word.
@Suite("Rule: a share open to its link")
struct ShareLinkRuleTests {
    static let id = RecordID(recordName: "share-groceries", zoneID: ZoneID(zoneName: "SyncgenZone"))
    static let owner = ShareParticipant(userRecordName: "_alice", role: .owner, permission: .readWrite, acceptanceStatus: .accepted)
    static let bob = ShareParticipant(userRecordName: "_bob", permission: .readWrite, acceptanceStatus: .accepted)
    static let carol = ShareParticipant(userRecordName: "_carol", permission: .readOnly, acceptanceStatus: .pending)

    static func share(_ participants: [ShareParticipant], link: SharePermission) -> ShareRecord {
        ShareRecord(id: id, rootRecordName: "groceries", participants: [owner] + participants, publicPermission: link)
    }

    @Test func theLinkNeitherOpensOverPendingInvitationsNorChangesWhoIsInvited() {
        // A closed link: anything goes.
        #expect(ShareLinkRule.problem(saving: Self.share([Self.bob, Self.carol], link: .none), over: nil) == nil)
        // Opening it while Carol has not accepted would withdraw her invitation.
        let opening = ShareLinkRule.problem(saving: Self.share([Self.bob, Self.carol], link: .readOnly), over: Self.share([Self.bob, Self.carol], link: .none))
        #expect(opening?.contains("user _carol") == true)
        // Once everyone invited accepted, it opens.
        #expect(ShareLinkRule.problem(saving: Self.share([Self.bob], link: .readOnly), over: Self.share([Self.bob], link: .none)) == nil)
        // While it is open, nobody is invited or removed.
        let inviting = ShareLinkRule.problem(saving: Self.share([Self.bob, Self.carol], link: .readOnly), over: Self.share([Self.bob], link: .readOnly))
        #expect(inviting?.contains("turn the link off first") == true)
        // Saving it as it is (a title changed) is fine.
        #expect(ShareLinkRule.problem(saving: Self.share([Self.bob], link: .readOnly), over: Self.share([Self.bob], link: .readOnly)) == nil)
    }
}
