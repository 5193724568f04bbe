import SyncGenerator
import SyncCore

/// Hover: what a model or field resolves to (its record type, databases, share hierarchy, Swift
/// and CloudKit types) and what its `description` says, and on a diagnostic, `syncgen explain`'s
/// text for its code.
extension Workspace {
    func hover(_ place: Place, explanationsURL: String) throws(RequestError) -> JSON {
        guard let path = try schemaPath(place.uri) else { return .null }
        let lines = lines(of: path)
        var sections: [String] = []
        let line = place.position.line + 1
        let folder = folder(of: path)
        for diagnostic in validated[folder]?.diagnostics[path] ?? [] where diagnostic.location.line == line {
            let range = lines.wordRange(line: diagnostic.location.line, column: diagnostic.location.column)
            guard range.contains(place.position) else { continue }
            sections.append("**\(diagnostic.code.rawValue)** \(diagnostic.message)\n\n```text\n\(ExplanationRenderer.text(diagnostic.code))```\n[\(diagnostic.code.rawValue)](\(explanationsURL)#\(diagnostic.code.rawValue.lowercased()))")
        }
        if let (found, index) = try occurrence(at: place) {
            // The last validation's schema, else the folder validated on its own: a check
            // against a baseline keeps no schema, and a folder with errors has none (the field
            // is then described as it is written).
            let schema = currentValidation(of: folder)?.schema ?? SchemaPipeline().validate(sources(in: folder)).schema
            if found.isModel, let model = index.model(named: found.name) {
                sections.insert(Self.describe(model, resolved: schema?.models.first { $0.name == found.name }), at: 0)
            } else if let owner = found.model, let model = index.model(named: owner),
                let field = model.fields.first(where: { $0.name.value == found.name })
            {
                let resolvedModel = schema?.models.first { $0.name == owner }
                // An asset is its file's key in CloudKit (with its markers beside it).
                let assetKeys = resolvedModel?.assetFields.first { $0.field.name == found.name }?.recordKeys
                let resolved = schema.flatMap { schema in
                    resolvedModel.flatMap { CloudKitFields.of($0, in: schema)[assetKeys?.contents ?? field.storedKey.value] }
                }
                sections.insert(Self.describe(field, of: model, resolved: resolved, assetKeys: assetKeys), at: 0)
            }
        }
        guard !sections.isEmpty else { return .null }
        return ["contents": ["kind": "markdown", "value": .string(sections.joined(separator: "\n\n---\n\n"))]]
    }

    /// `[private, shared]`, as the model declares its scopes (`[private]` when it does not).
    static func scopesText(_ model: ModelDeclaration) -> String {
        "[" + (model.scopes?.value.map(\.value) ?? ["private"]).joined(separator: ", ") + "]"
    }

    private static func describe(_ model: ModelDeclaration, resolved: Model?) -> String {
        var lines = ["**\(model.name.value)**: a model in \(scopesText(model))"]
        if let documentation = model.documentation?.value { lines += ["", documentation, ""] }
        lines.append("- record type `\(resolved?.recordType ?? model.recordType?.value ?? model.name.value)`")
        let scopes = resolved?.scopes.scopes ?? (model.scopes?.value.compactMap { ScopeName(rawValue: $0.value) } ?? [.private])
        let databases = scopes.map { scope in
            switch scope {
            case .private: "the private database (the user's own records)"
            case .shared: "the shared database (records others share with the user)"
            case .public: "the public database (readable by every user of the app)"
            }
        }
        lines.append("- lives in " + databases.joined(separator: "; and "))
        if model.shareable?.value == true { lines.append("- shareable: the root of a share") }
        if let parent = model.parent?.value { lines.append("- parent `\(parent)`: shared along with it") }
        if let projection = model.publishAs?.value { lines.append("- publishes as `\(projection)`") }
        lines.append("- \(model.fields.count) field\(model.fields.count == 1 ? "" : "s")")
        return lines.joined(separator: "\n")
    }

    private static func describe(_ field: FieldDeclaration, of model: ModelDeclaration, resolved: CloudKitFields.Field?, assetKeys: AssetRecordKeys?) -> String {
        var lines = ["**\(model.name.value).\(field.name.value)**: \(resolved?.spelling ?? field.type?.value ?? "no type")\(field.optional?.value == true ? ", optional" : "")"]
        if let documentation = field.documentation?.value { lines += ["", documentation, ""] }
        let described = { (name: String) in field.caseDocumentation[name].map { "`\(name)` (\($0.value))" } ?? "`\(name)`" }
        if let resolved {
            lines.append("- CloudKit type `\(resolved.type)`\(resolved.isEncrypted ? ", encrypted" : "")")
            if let assetKeys {
                lines.append("- travels under " + assetKeys.all.map { "`\($0)`" }.joined(separator: ", "))
            } else if let recordKey = field.recordKey?.value {
                lines.append("- stored under the record key `\(recordKey)`: renamed in Swift only")
            }
            if let target = resolved.referenceTarget { lines.append("- points at record type `\(target)`") }
            if let cases = resolved.enumCases { lines.append("- cases: " + cases.map(described).joined(separator: ", ") + "; any other name is kept as `unknown`") }
            if !resolved.indexes.isEmpty { lines.append("- indexes: " + resolved.indexes.sorted().joined(separator: ", ")) }
        } else if field.localOnly?.value == true {
            lines.append("- local only: never in CloudKit")
        } else {
            // Unresolved (the folder has errors): what the declaration itself says.
            if let target = field.to?.value { lines.append("- points at `\(target)`") }
            if let element = field.of?.value { lines.append("- a list of `\(element)`") }
            if let cases = field.cases?.value { lines.append("- cases: " + cases.map { described($0.value) }.joined(separator: ", ")) }
            if field.encrypted?.value == true { lines.append("- encrypted") }
            if !field.index.isEmpty { lines.append("- indexes: " + field.index.map { $0.value.uppercased() }.joined(separator: ", ")) }
            lines.append("- as written: the folder has errors, so what it resolves to is not known yet")
        }
        return lines.joined(separator: "\n")
    }
}
