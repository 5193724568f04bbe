import SyncCore

/// The keys a catalog query asks for, in one place: the model's desired fields, then the asset's
/// markers (suffix, size, digest; never its contents), then the publication lifecycle of governed
/// models.
enum CatalogKeys {
    static func desiredKeys(of model: Model) -> [String] {
        guard let catalog = model.catalog else { return [] }
        var keys = catalog.desiredFields
        for asset in model.assetFields where !asset.field.isLocalOnly {
            keys += asset.recordKeys.markers
        }
        if catalog.isGoverned {
            keys += RecordFieldNames.publicationLifecycleFields
        }
        return keys
    }

    /// The keys a server query's page asks for: every field the cloud holds and the assets'
    /// markers, never an asset's contents (a reader downloads a file on demand), and the
    /// publication lifecycle of a governed model.
    static func serverQueryKeys(of model: Model) -> [String] {
        var keys = model.fields.filter { !$0.isLocalOnly && $0.type.scalar != .asset }.map(\.name)
        for asset in model.assetFields where !asset.field.isLocalOnly {
            keys += asset.recordKeys.markers
        }
        if model.catalog?.isGoverned == true {
            keys += RecordFieldNames.publicationLifecycleFields
        }
        return keys
    }
}
