/// A model whose records can be the root of a CKShare.
public protocol ShareableModel: SyncModel {
    /// The title people see when they are invited.
    var shareTitle: String { get }
}

/// A model with an asset: a file kept in the asset cache and uploaded as a CKAsset.
public protocol CacheableModel: SyncModel {
    /// The name of the schema field that holds the asset.
    static var assetFieldName: String { get }
    /// The asset's markers (suffix and size), nil when no file is attached.
    var assetReference: AssetReference? { get set }
}

/// A public model read by catalog queries.
public protocol PublicCatalogModel: SyncModel {
    /// The fields a catalog query fetches. Asset contents are never among them; the asset's suffix
    /// and size markers are, so readers know a file exists and whether theirs is stale.
    static var catalogDesiredKeys: [String] { get }
    /// The state a record starts in when first published: `.delisted` means "review first".
    static var initialPublicationState: PublicationState { get }
}

/// A catalog model whose publication lifecycle the runtime governs.
public protocol PublicationGovernedModel: PublicCatalogModel {
    var publicationLifecycle: PublicationLifecycle { get set }
}

/// A private draft that publishes into a public projection under the same recordName.
public protocol PublishableModel: SyncModel {
    associatedtype Projection: PublicCatalogModel

    /// Copies every field the projection declares from this draft: the projection's fields are
    /// exactly what is published. A nil optional leaves the projection's current value.
    func project(onto projection: inout Projection)
}

extension PublishableModel {
    /// A new projection of this draft, owned by the current user (public records always are).
    public func makeProjection() -> Projection {
        var projection = Projection(emptyRecordNamed: recordName, ownerName: SyncConstants.currentUserOwnerName)
        project(onto: &projection)
        return projection
    }
}

/// The list of every model type of a schema, generated as `SyncSchema`, so the runtime registers
/// them all in one call and none can be forgotten.
public protocol SyncSchemaDefinition {
    static var models: [any SyncModel.Type] { get }
}

/// Generated code conforms a private type to this protocol. When generator and runtime disagree
/// on the API version, the build fails here, with this name in the error, instead of misbehaving
/// at run time. A hook of generated code, not app API: an SPI the generated file imports
/// (`@_spi(SyncgenGenerated) import SyncCore`), so an app's autocomplete never offers it.
@_spi(SyncgenGenerated)
public protocol SyncgenRuntimeAPIVersion1 {}

/// The API version the generator must name (`SyncgenRuntimeAPIVersion1`), and the SPI that
/// holds it.
package enum RuntimeAPI {
    package static let versionCheckProtocol = "SyncgenRuntimeAPIVersion1"
    package static let generatedCodeSPI = "SyncgenGenerated"
}
