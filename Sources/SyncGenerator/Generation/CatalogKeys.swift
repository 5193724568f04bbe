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
}
