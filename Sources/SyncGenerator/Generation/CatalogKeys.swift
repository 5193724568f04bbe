import SyncCore

/// The keys a query of a public model asks for, in one place: fields (by their record keys), then
/// the assets' markers (suffix, size, digest; never their contents), then the publication
/// lifecycle of governed models.
enum CatalogKeys {
    /// A catalog query's: the model's desired fields, then the rest.
    static func desiredKeys(of model: Model) -> [String] {
        guard let catalog = model.catalog else { return [] }
        return catalog.desiredFields.map { model.field(named: $0)?.recordKey ?? $0 } + keysBesideFields(of: model)
    }

    /// A server query's page: every field the cloud holds, then the rest (a reader downloads an
    /// asset's file on demand).
    static func serverQueryKeys(of model: Model) -> [String] {
        model.fields.filter { !$0.isLocalOnly && $0.type.scalar != .asset }.map(\.recordKey) + keysBesideFields(of: model)
    }

    /// The assets' markers, then the publication lifecycle of a governed model.
    private static func keysBesideFields(of model: Model) -> [String] {
        var keys: [String] = []
        for asset in model.assetFields where !asset.field.isLocalOnly {
            keys += asset.recordKeys.markers
        }
        if model.catalog?.isGoverned == true {
            keys += RecordFieldNames.publicationLifecycleFields
        }
        return keys
    }
}
