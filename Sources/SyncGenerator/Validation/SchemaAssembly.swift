/// Builds the ``Schema`` once every rule holds.
extension ValidationContext {
    /// The resolved schema, or nil when some piece could not be resolved (its problem was reported,
    /// here or by an earlier stage).
    func assembleSchema() -> Schema? {
        var resolved: [Model] = []
        let modelNames = Set(models.map(\.name.value)).union(declaredBesides.keys)
        for id in canonicalModelIDs {
            let model = model(id)
            guard let modelScopes = scopes[id], modelScopes.isPublic == (catalogs[id] != nil) else { return nil }
            var fields: [Field] = []
            // An enum's Swift type is a member of its model: named so it hides nothing the
            // model's code means (a model's name, a field's, another enum's). The model names
            // are looked up where they are, never copied per model: that copy made validation
            // quadratic in the models of a file.
            var taken = Set(model.fields.map(\.name.value))
            for fieldID in fieldIDs(of: id) {
                let field = field(fieldID)
                guard let type = fieldTypes[fieldID], let fieldIndexes = indexes[fieldID] else { return nil }
                let enumeration = enumCases[fieldID].map { cases in
                    let typeName = ReservedNames.enumTypeName(forField: field.name.value) { taken.contains($0) || modelNames.contains($0) }
                    taken.insert(typeName)
                    return FieldEnumeration(typeName: typeName, cases: cases, documentation: field.caseDocumentation.mapValues(\.value))
                }
                var resolvedField = Field(
                    name: field.name.value, type: type, isOptional: field.isOptional,
                    defaultValue: defaults[fieldID], isEncrypted: field.isEncrypted,
                    isLocalOnly: field.isLocalOnly, isServerOwned: field.isServerOwned,
                    indexes: fieldIndexes, mergePolicy: fieldMergePolicies[fieldID], enumeration: enumeration,
                    recordKey: field.recordKey?.value, location: field.name.location)
                resolvedField.documentation = field.documentation?.value
                if field.deprecated?.value == true { resolvedField.deprecation = field.deprecationMessage?.value ?? "" }
                fields.append(resolvedField)
            }
            var resolvedModel = Model(
                name: model.name.value, recordType: (model.recordType ?? model.name).value,
                scopes: modelScopes, isShareable: model.shareable?.value ?? false,
                parent: model.parent?.value, zone: model.zone?.value, publishAs: model.publishAs?.value, catalog: catalogs[id],
                uniqueKeys: uniqueKeys[id] ?? [], mergePolicy: modelMergePolicies[id],
                fields: fields, location: model.name.location)
            resolvedModel.documentation = model.documentation?.value
            resolved.append(resolvedModel)
        }
        return Schema(models: resolved)
    }
}
