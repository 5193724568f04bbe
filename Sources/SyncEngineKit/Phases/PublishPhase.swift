import Foundation
import SyncCore
import SyncPorts

/// Why publishing could not happen. Never silent.
public enum PublishError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The projection type is not among the engine's models: it would never be pushed.
    case projectionNotRegistered(String)
    /// The projection type does not live in the public database.
    case projectionNotPublic(String)
    /// No such record to publish, unpublish, take down or relist.
    case notFound(recordType: String, recordName: String)
    /// The local store failed: the projection was not written.
    case store(LocalStoreError)
    /// The projection is a record CloudKit would refuse (too large, a name it rejects).
    case refused(RecordRefusal)
    /// The projection was saved, but the draft's asset file could not be given to it.
    case asset(AssetError)

    public var description: String {
        switch self {
        case .projectionNotRegistered(let type): "\(type) is not one of the engine's models, so it would never be pushed"
        case .projectionNotPublic(let type): "\(type) does not live in the public database"
        case .notFound(let type, let name): "no \(type) named \(name)"
        case .store(let error): "the local store failed: \(error)"
        case .refused(let refusal): "\(refusal)"
        case .asset(let error): "the asset could not be published: \(error)"
        }
    }
}

/// Publishing is a local write: the draft's projection is saved (or deleted) in the store, and the
/// ordinary push takes it to the public database. It works offline, and there is one write path.
struct PublishPhase {
    let context: SyncContext

    func publish<Draft: PublishableModel>(_ draft: Draft) throws(PublishError) {
        try check(Draft.Projection.self)
        try write { writer in
            if var projection = try writer.fetch(Draft.Projection.self, recordName: draft.recordName) {
                draft.project(onto: &projection)
                if var governed = projection as? any PublicationGovernedModel {
                    // New content, new version; the shelf state stays as review or takedown left it.
                    governed.publicationLifecycle.version += 1
                    projection = governed as! Draft.Projection
                }
                try writer.save(projection)
            } else {
                var projection = draft.makeProjection()
                if var governed = projection as? any PublicationGovernedModel {
                    governed.publicationLifecycle = PublicationLifecycle(
                        state: Draft.Projection.initialPublicationState, version: 1, publishedAt: context.clock.now)
                    projection = governed as! Draft.Projection
                }
                try writer.save(projection)
            }
        }
        // The projection is a record of its own: it uploads its own copy of each file it
        // declares (an asset field of the draft's name).
        let declared = Set(Draft.Projection.assetFields.map(\.name))
        for field in Draft.assetFields where declared.contains(field.name) {
            do {
                try AssetFileCopy(context: context).copy(
                    from: AssetKey(recordType: Draft.recordType, recordName: draft.recordName, field: field.name),
                    to: AssetKey(recordType: Draft.Projection.recordType, recordName: draft.recordName, field: field.name))
            } catch {
                throw .asset(error)
            }
        }
    }

    func unpublish<Draft: PublishableModel>(_ draft: Draft.Type, recordName: String) throws(PublishError) {
        try check(Draft.Projection.self)
        try write { writer in
            if let projection = try writer.fetch(Draft.Projection.self, recordName: recordName) { try writer.delete(projection) }
        }
    }

    /// Deletes a draft and its public copy together.
    func deleteDraft<Draft: PublishableModel>(_ draft: Draft) throws(PublishError) {
        try write { writer in
            if let projection = try writer.fetch(Draft.Projection.self, recordName: draft.recordName) { try writer.delete(projection) }
            try writer.delete(draft)
        }
    }

    func setState<Projection: PublicationGovernedModel>(_ state: PublicationState, of type: Projection.Type, recordName: String) throws(PublishError) {
        try write { writer in
            guard var projection = try writer.fetch(type, recordName: recordName) else {
                throw PublishError.notFound(recordType: type.recordType, recordName: recordName)
            }
            projection.publicationLifecycle.state = state
            try writer.save(projection)
        }
    }

    private func check(_ projection: any PublicCatalogModel.Type) throws(PublishError) {
        guard context.registry.type(forRecordType: projection.recordType) != nil else {
            throw .projectionNotRegistered(projection.recordType)
        }
        guard projection.syncScopes == [.public] else { throw .projectionNotPublic(projection.recordType) }
    }

    private func write(_ body: (any ModelWriter) throws -> Void) throws(PublishError) {
        do {
            try context.store.write(author: .app, body)
        } catch let error as PublishError {
            throw error
        } catch let refusal as RecordRefusal {
            throw .refused(refusal)
        } catch {
            throw .store(LocalStoreError(storeFailure: error))
        }
    }
}
