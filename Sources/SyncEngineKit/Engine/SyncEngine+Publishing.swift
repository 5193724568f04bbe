import Foundation
import SyncCore
import SyncPorts

// MARK: - Publishing (local writes, pushed by the next pass)

extension SyncEngine {
    /// Publishes a draft: creates or updates its public projection (same recordName). A governed
    /// projection starts in its model's initial state; later publishes bump the version and keep
    /// the state (a taken-down item stays down).
    public func publish<Draft: PublishableModel>(_ draft: Draft) throws(PublishError) {
        try PublishPhase(context: context).publish(draft)
    }

    /// Removes a draft's public projection.
    public func unpublish<Draft: PublishableModel>(_ draft: Draft.Type, recordName: String) throws(PublishError) {
        try PublishPhase(context: context).unpublish(draft, recordName: recordName)
    }

    /// Deletes a draft together with its public projection (deleting the draft alone would leave
    /// the public copy published).
    public func deleteDraft<Draft: PublishableModel>(_ draft: Draft) throws(PublishError) {
        try PublishPhase(context: context).deleteDraft(draft)
    }

    /// Hides a governed catalog record (it stays in the public database, delisted).
    public func takedown<Projection: PublicationGovernedModel>(_ type: Projection.Type, recordName: String) throws(PublishError) {
        try PublishPhase(context: context).setState(.delisted, of: type, recordName: recordName)
    }

    /// Lists a taken-down projection again (a local write, pushed by the next pass); its version stays.
    public func relist<Projection: PublicationGovernedModel>(_ type: Projection.Type, recordName: String) throws(PublishError) {
        try PublishPhase(context: context).setState(.listed, of: type, recordName: recordName)
    }
}
