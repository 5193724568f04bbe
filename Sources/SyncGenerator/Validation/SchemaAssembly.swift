/// Builds the ``Schema`` once every rule holds.
extension ValidationContext {
    /// The resolved schema, or nil when some piece could not be resolved (its problem was reported,
    /// here or by an earlier stage).
    func assembleSchema() -> Schema? {
        var resolved: [Model] = []
        for id in canonicalModelIDs {
            let model = model(id)
            guard let modelScopes = scopes[id], modelScopes.isPublic == (catalogs[id] != nil) else { return nil }
            var fields: [Field] = []
            for fieldID in fieldIDs(of: id) {
                let field = field(fieldID)
                guard let type = fieldTypes[fieldID], let fieldIndexes = indexes[fieldID] else { return nil }
                fields.append(Field(
                    name: field.name.value, type: type, isOptional: field.isOptional,
                    defaultValue: defaults[fieldID], isEncrypted: field.isEncrypted,
                    isLocalOnly: field.isLocalOnly, isServerOwned: field.isServerOwned,
                    indexes: fieldIndexes, mergePolicy: fieldMergePolicies[fieldID], location: field.name.location))
            }
            resolved.append(Model(
                name: model.name.value, recordType: (model.recordType ?? model.name).value,
                scopes: modelScopes, isShareable: model.shareable?.value ?? false,
                parent: model.parent?.value, publishAs: model.publishAs?.value, catalog: catalogs[id],
                uniqueKeys: uniqueKeys[id] ?? [], mergePolicy: modelMergePolicies[id],
                fields: fields, location: model.name.location))
        }
        return Schema(models: resolved)
    }
}
