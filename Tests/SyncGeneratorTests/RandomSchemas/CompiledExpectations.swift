import SyncGenerator

/// Swift that compiles only if the generated code gives each model the types its schema says,
/// written from the validated `Schema` with every model named through its module
/// (`RandomSchemas1.Note`), never as the generator spells it. A name generated code lets
/// something else capture (a member type, a field) compiles there but fails here: a reference to
/// a model named like a draft's `Projection` typealias would silently point at the projection.
enum CompiledExpectations {
    /// Declared once per module: a draft's projection type, checked by a same-type requirement.
    static func support() -> String {
        """
        import SyncCore

        func expectProjection<Draft: SyncCore.PublishableModel>(_ draft: Draft.Type, _ projection: Draft.Projection.Type) {}

        """
    }

    /// The expectations of one schema, whose `SyncSchema` the module knows as `schemaType`; and,
    /// as an app writes it, the merge function of each model with `merge: custom` fields.
    static func file(for schema: Schema, module: String, schemaType: String, function: String, access: CodeGenerator.AccessLevel) -> String {
        var lines = [
            "import Foundation", "import SyncCore", "",
            "private func \(function)() {",
            "    let _: [any SyncCore.SyncModel.Type] = \(module).\(schemaType).models",
        ]
        for model in schema.models {
            let type = "\(module).`\(model.name)`"
            lines.append("    let _: any SyncCore.SyncModel.Type = \(type).self")
            if let parent = model.parent {
                lines.append("    let _: Swift.WritableKeyPath<\(type), Swift.Optional<SyncCore.RecordReference<\(module).`\(parent)`>>> = \\\(type).parent")
            }
            for field in model.fields {
                // An enum's type is the model's member, named as the field is (capitalized).
                let value = swiftType(field.type, enumType: field.enumeration.map { "\(type).\($0.typeName)" }, module: module)
                let optional = field.isOptional || field.type == .scalar(.asset) ? "Swift.Optional<\(value)>" : value
                lines.append("    let _: Swift.WritableKeyPath<\(type), \(optional)> = \\\(type).`\(field.name)`")
            }
            if model.isShareable { lines.append("    let _: any SyncCore.ShareableModel.Type = \(type).self") }
            if !model.assetFields.isEmpty { lines.append("    let _: any SyncCore.CacheableModel.Type = \(type).self") }
            if let catalog = model.catalog {
                lines.append("    let _: any SyncCore.PublicCatalogModel.Type = \(type).self")
                if catalog.isGoverned { lines.append("    let _: any SyncCore.PublicationGovernedModel.Type = \(type).self") }
            }
            if let projection = model.publishAs {
                lines.append("    expectProjection(\(type).self, \(module).`\(projection)`.self)")
            }
        }
        lines.append("}")
        for model in schema.models where model.fields.contains(where: { $0.mergePolicy == .custom }) {
            let prefix = access == .public ? "public " : ""
            lines.append("")
            lines.append("extension \(module).`\(model.name)` {")
            lines.append("    \(prefix)static func merge(_ field: Swift.String, ancestor: Self?, local: Self, server: Self, into merged: inout Self) {}")
            lines.append("}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func swiftType(_ type: FieldType, enumType: String?, module: String) -> String {
        // Written out here, not read from the type's facts: the test checks what they say.
        switch type {
        case .scalar(.string): "Swift.String"
        case .scalar(.int): "Swift.Int64"
        case .scalar(.double): "Swift.Double"
        case .scalar(.bool): "Swift.Bool"
        case .scalar(.date): "Foundation.Date"
        case .scalar(.data): "Foundation.Data"
        case .scalar(.asset): "SyncCore.AssetReference"
        case .scalar(.location): "SyncCore.SyncLocation"
        case .scalar(.url): "Foundation.URL"
        case .scalar(.uuid): "Foundation.UUID"
        case .scalar(.enum): enumType ?? "an enum without its cases"
        case .reference(let target, _): "SyncCore.RecordReference<\(module).`\(target)`>"
        case .list(let element): "Swift.Array<\(swiftType(element, enumType: enumType, module: module))>"
        }
    }
}
