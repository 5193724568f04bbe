import SyncGenerator

/// Completion: the keys valid where the cursor is, and the words a key's value may be (types,
/// model names, scopes, merge policies, index kinds...), each with its one line of documentation.
extension Workspace {
    enum ItemKind {
        static let key = 10  // Property
        static let model = 7  // Class
        static let word = 20  // EnumMember
        static let value = 12  // Value
    }

    func completion(_ place: Place) throws(RequestError) -> JSON {
        guard let path = try schemaPath(place.uri) else { return ["isIncomplete": false, "items": []] }
        let context = CursorContext(lines: lines(of: path), position: place.position)
        let items = Self.items(for: context, models: { index(for: path).models })
        return ["isIncomplete": false, "items": .array(items.filter { $0.label.hasPrefix(context.prefix) }.map(\.json))]
    }

    struct Item {
        var label: String
        var kind: Int
        var documentation: String?

        var json: JSON {
            var json: [String: JSON] = ["label": .string(label), "kind": .number(Double(kind))]
            if let documentation { json["documentation"] = .string(documentation) }
            return .object(json)
        }
    }

    /// What may be written at a place: `models` is read only when model names are wanted.
    static func items(for context: CursorContext, models: () -> [ModelDeclaration]) -> [Item] {
        let level = level(of: context.path)
        guard let key = context.valueOf else {
            guard let level else { return [] }
            return level.keys.map { Item(label: $0, kind: ItemKind.key, documentation: SchemaVocabulary.documentation(ofKey: $0, at: level)) }
        }
        // `name: TYPE`, a field's shorthand.
        if context.path.count == 3, context.path[0] == "models", context.path[2] == "fields" {
            return words(FieldKind.allCases)
        }
        func modelNames() -> [Item] {
            models().map { Item(label: $0.name.value, kind: ItemKind.model, documentation: "model in \(scopesText($0))") }
        }
        // The zones the other models name: a household's models share one.
        func zoneNames() -> [Item] {
            let named = Dictionary(grouping: models().filter { $0.name.value != context.path[1] }.compactMap { model in
                model.zone.map { (zone: $0.value, model: model.name.value) }
            }, by: \.zone)
            return named.keys.sorted().map { zone in
                Item(label: zone, kind: ItemKind.value, documentation: "the zone of \(named[zone]!.map(\.model).sorted().joined(separator: ", "))")
            }
        }
        switch (level, key) {
        case (.model?, "scopes"): return words(ScopeName.allCases)
        case (.model?, "zone"): return zoneNames()
        case (.model?, "parent"), (.model?, "publishAs"), (.field?, "to"): return modelNames()
        case (.model?, "merge"): return words(MergePolicyName.allCases.filter(\.isModelPolicy))
        case (.field?, "merge"): return words(MergePolicyName.allCases)
        case (.field?, "type"): return words(FieldKind.allCases)
        case (.field?, "of"): return words(FieldKind.allCases.filter(\.isListElement))
        case (.field?, "onDelete"): return words(DeleteActionName.allCases)
        case (.field?, "index"): return words(IndexKind.allCases)
        case (.field?, "default"):
            // An enum's default is one of the cases it lists.
            let field = models().first { $0.name.value == context.path[1] }?.fields.first { $0.name.value == context.path[3] }
            return field?.cases?.value.map { Item(label: $0.value, kind: ItemKind.value, documentation: "a case of '\(context.path[3])'") } ?? []
        case (.catalog?, "initialState"): return words(PublicationStateName.allCases)
        case (.catalog?, "desiredKeys"): return [Item(label: SchemaVocabulary.automaticDesiredKeys, kind: ItemKind.word, documentation: "Every field except the asset and local-only fields.")]
        case (.model?, "shareable"), (.field?, "optional"), (.field?, "encrypted"), (.field?, "localOnly"),
             (.field?, "serverOwned"), (.catalog?, "governed"):
            return ["true", "false"].map { Item(label: $0, kind: ItemKind.value) }
        default: return []
        }
    }

    private static func words<Word: DocumentedWord>(_ words: [Word]) -> [Item] {
        words.map { Item(label: $0.rawValue, kind: ItemKind.word, documentation: $0.documentation) }
    }

    /// The level a mapping at `path` is: the file, a model, a field or a catalog.
    static func level(of path: [String]) -> SchemaKeyLevel? {
        switch path.count {
        case 0: .file
        case 2 where path[0] == "models": .model
        case 3 where path[0] == "models" && path[2] == "catalog": .catalog
        case 4 where path[0] == "models" && path[2] == "fields": .field
        default: nil
        }
    }
}
