/// Turns one file's YAML tree into a ``SchemaDocument``: checks the shape of every mapping, list and
/// value, and keeps every name and word with its location for the validator.
///
/// Structure problems (wrong kinds, unknown or repeated keys, missing required keys) are reported
/// here; whatever can still be read is kept, so that validation can report the rest in the same run.
package enum SchemaParser {
    package static func parse(_ root: YAMLNode?, file: String) -> (SchemaDocument, [Diagnostic]) {
        var parser = Parser(file: file)
        let models = parser.parseFile(root)
        return (SchemaDocument(file: file, models: models), parser.diagnostics)
    }
}

private struct Parser {
    let file: String
    var diagnostics: [Diagnostic] = []

    init(file: String) {
        self.file = file
    }

    // MARK: - File

    mutating func parseFile(_ root: YAMLNode?) -> [ModelDeclaration] {
        guard let root else { return [] }
        guard let mapping = root.mapping else {
            diagnostics.append(Diagnostic(.fileNotMapping, "a schema file must be a mapping with a 'models' key, not \(root.kindDescription)", at: root.location))
            return []
        }
        let reader = MappingReader(
            mapping, knownKeys: SchemaVocabulary.fileKeys, in: "the schema file",
            ignoringPrefix: SchemaVocabulary.extensionKeyPrefix, diagnostics: &diagnostics)
        if let version = reader["version"] {
            checkVersion(version.value)
        }
        guard let models = reader["models"] else {
            diagnostics.append(Diagnostic(.missingRequiredKey, "a schema file needs a 'models' mapping", at: root.location))
            return []
        }
        guard let modelEntries = entries(of: models.value, describedAs: "'models' must be a mapping of model names to models") else {
            return []
        }
        var declarations: [ModelDeclaration] = []
        for entry in modelEntries {
            declarations.append(parseModel(entry))
        }
        return declarations
    }

    private mutating func checkVersion(_ node: YAMLNode) {
        guard let scalar = node.scalar, case .int(let version) = scalar.value else {
            diagnostics.append(Diagnostic(.wrongValueKind, "'version' must be the number \(SchemaVocabulary.languageVersion), not \(node.kindDescription)", at: node.location))
            return
        }
        if version != SchemaVocabulary.languageVersion {
            diagnostics.append(Diagnostic(.unsupportedVersion, "schema-language version \(version) is not supported; this syncgen reads version \(SchemaVocabulary.languageVersion)", at: node.location))
        }
    }

    // MARK: - Models

    private mutating func parseModel(_ entry: YAMLMappingEntry) -> ModelDeclaration {
        let name = Located(entry.key.text, at: entry.keyLocation)
        var model = ModelDeclaration(name: name)
        let context = "model '\(name.value)'"
        guard let mapping = entries(of: entry.value, describedAs: "model '\(name.value)' must be a mapping with a 'fields' key") else {
            return model
        }
        let reader = MappingReader(
            mapping, knownKeys: SchemaVocabulary.modelKeys, in: context,
            explainingUnknown: { Self.misplacedField($0, among: mapping) }, diagnostics: &diagnostics)
        model.documentation = reader["description"].flatMap { prose($0, in: context) }
        model.recordType = reader["recordType"].flatMap { text($0, in: context) }
        model.scopes = reader["scopes"].flatMap { words($0, in: context) }
        model.shareable = reader["shareable"].flatMap { bool($0, in: context) }
        model.parent = reader["parent"].flatMap { text($0, in: context) }
        model.zone = reader["zone"].flatMap { text($0, in: context) }
        model.publishAs = reader["publishAs"].flatMap { text($0, in: context) }
        model.catalog = reader["catalog"].flatMap { parseCatalog($0, model: name.value) }
        model.unique = reader["unique"].map { parseUnique($0, in: context) } ?? []
        model.merge = reader["merge"].flatMap { text($0, in: context) }
        if let fields = reader["fields"] {
            model.fields = parseFields(fields, model: name.value)
        } else {
            diagnostics.append(Diagnostic(.missingRequiredKey, "model '\(name.value)' needs a 'fields' mapping (write 'fields: {}' for none)", at: name.location))
        }
        return model
    }

    private mutating func parseCatalog(_ entry: YAMLMappingEntry, model: String) -> CatalogDeclaration? {
        let context = "the catalog of model '\(model)'"
        guard let mapping = entries(of: entry.value, describedAs: "'catalog' must be a mapping") else { return nil }
        let reader = MappingReader(mapping, knownKeys: SchemaVocabulary.catalogKeys, in: context, diagnostics: &diagnostics)
        var catalog = CatalogDeclaration(location: entry.keyLocation)
        if let keys = reader["desiredKeys"] {
            if let scalar = keys.value.scalar, scalar.value == .string(SchemaVocabulary.automaticDesiredKeys) {
                catalog.desiredKeys = .automatic(keys.value.location)
            } else if keys.value.sequence != nil, let list = words(keys, in: context) {
                catalog.desiredKeys = .explicit(list.value)
            } else if keys.value.sequence == nil {
                diagnostics.append(Diagnostic(.wrongValueKind, "'desiredKeys' must be 'auto' or a list of field names, not \(keys.value.kindDescription)", at: keys.value.location))
            }
        }
        catalog.initialState = reader["initialState"].flatMap { text($0, in: context) }
        catalog.governed = reader["governed"].flatMap { bool($0, in: context) }
        return catalog
    }

    /// `unique: [a, b]` (one key of two fields) or `unique: [[a], [b, c]]` (two keys).
    private mutating func parseUnique(_ entry: YAMLMappingEntry, in context: String) -> [Located<[Located<String>]>] {
        guard let items = entry.value.sequence else {
            diagnostics.append(Diagnostic(.wrongValueKind, "'unique' of \(context) must be a list of field names, or a list of such lists, not \(entry.value.kindDescription)", at: entry.value.location))
            return []
        }
        if items.allSatisfy({ $0.sequence == nil }) {
            return words(entry, in: context).map { [$0] } ?? []
        }
        var keys: [Located<[Located<String>]>] = []
        for item in items {
            guard let fields = item.sequence else {
                diagnostics.append(Diagnostic(.wrongValueKind, "'unique' of \(context) mixes field names and lists: write one key as [a, b], several as [[a], [b, c]]", at: item.location))
                continue
            }
            var names: [Located<String>] = []
            for field in fields {
                if let scalar = field.scalar, case .string(let text) = scalar.value, !text.isEmpty {
                    names.append(Located(text, at: field.location))
                } else {
                    diagnostics.append(Diagnostic(.wrongValueKind, "each entry of a key in 'unique' of \(context) must be a field name, not \(field.kindDescription)", at: field.location))
                }
            }
            keys.append(Located(names, at: item.location))
        }
        return keys
    }

    // MARK: - Fields

    private mutating func parseFields(_ entry: YAMLMappingEntry, model: String) -> [FieldDeclaration] {
        guard let mapping = entries(of: entry.value, describedAs: "'fields' of model '\(model)' must be a mapping of field names to types") else {
            return []
        }
        var fields: [FieldDeclaration] = []
        fields.reserveCapacity(mapping.count)
        for entry in mapping {
            if let field = parseField(entry, model: model) { fields.append(field) }
        }
        return fields
    }

    private mutating func parseField(_ entry: YAMLMappingEntry, model: String) -> FieldDeclaration? {
        let name = Located(entry.key.text, at: entry.keyLocation)
        // Built only for a message: a schema has many fields and few mistakes.
        let context = { "field '\(name.value)' of model '\(model)'" }
        switch entry.value.content {
        case .scalar(let scalar):
            // Shorthand: `name: type`.
            guard case .string(let word) = scalar.value else {
                if scalar.value == .null {
                    diagnostics.append(Diagnostic(.missingRequiredKey, "\(context()) has no type", at: name.location))
                } else {
                    diagnostics.append(Diagnostic(.wrongValueKind, "\(context()) must be a type name or a mapping, not \(entry.value.kindDescription)", at: entry.value.location))
                }
                return FieldDeclaration(name: name, type: nil)
            }
            return FieldDeclaration(name: name, type: Located(word, at: entry.value.location))
        case .sequence:
            diagnostics.append(Diagnostic(.wrongValueKind, "\(context()) must be a type name or a mapping, not a list (for a list field write '{ type: list, of: TYPE }')", at: entry.value.location))
            return FieldDeclaration(name: name, type: nil)
        case .mapping(let mapping):
            let reader = MappingReader(mapping, knownKeys: SchemaVocabulary.fieldKeys, in: context(), diagnostics: &diagnostics)
            var field = FieldDeclaration(name: name, type: nil)
            var hasType = false
            // One pass over what is written (a field has a few of its eleven keys), not a lookup
            // of each key it could have.
            for (key, entry) in reader.knownEntries {
                switch key {
                case "type":
                    hasType = true
                    field.type = text(entry, in: context())
                case "optional": field.optional = bool(entry, in: context())
                case "default": field.defaultValue = entry.value
                case "to": field.to = text(entry, in: context())
                case "onDelete": field.onDelete = text(entry, in: context())
                case "of": field.of = text(entry, in: context())
                case "description": field.documentation = prose(entry, in: context())
                case "cases": (field.cases, field.caseDocumentation) = cases(entry, in: context())
                case "encrypted": field.encrypted = bool(entry, in: context())
                case "localOnly": field.localOnly = bool(entry, in: context())
                case "serverOwned": field.serverOwned = bool(entry, in: context())
                case "index": field.index = words(entry, in: context())?.value ?? []
                case "merge": field.merge = text(entry, in: context())
                case "recordKey": field.recordKey = text(entry, in: context())
                case "maxBytes": field.maxBytes = integer(entry, in: context())
                case "deprecated":
                    if case .string = entry.value.scalar?.value {
                        field.deprecationMessage = prose(entry, in: context())
                        field.deprecated = field.deprecationMessage.map { Located(true, at: $0.location) }
                    } else {
                        field.deprecated = bool(entry, in: context())
                    }
                default: preconditionFailure("'\(key)' is in SchemaVocabulary.fieldKeys but read nowhere")
                }
            }
            if !hasType {
                diagnostics.append(Diagnostic(.missingRequiredKey, "\(context()) needs a 'type'", at: name.location))
            }
            return field
        }
    }

    /// For a model's unknown key that reads as a field (`title: string`, or a mapping with a
    /// `type`), where it belongs: a field indented too little lands among the model's keys, or
    /// makes `fields:` empty.
    private static func misplacedField(_ entry: YAMLMappingEntry, among model: [YAMLMappingEntry]) -> String? {
        let readsAsField = switch entry.value.content {
        case .scalar(let scalar): FieldKind(rawValue: scalar.text) != nil
        case .mapping(let keys): keys.contains { $0.key.text == "type" }
        case .sequence: false
        }
        guard readsAsField, let fields = model.first(where: { $0.key.text == "fields" }) else { return nil }
        if let sibling = fields.value.mapping?.first {
            return "; it reads as a field: indent it \(sibling.keyLocation.column - 1) spaces, under 'fields' (line \(fields.keyLocation.line)), as '\(sibling.key.text)' is"
        }
        return "; it reads as a field: indent it under 'fields' (line \(fields.keyLocation.line)), deeper than 'fields' is"
    }

    // MARK: - Values

    /// The entries of a mapping value; none for an empty value (`fields:` with nothing after it);
    /// nil, reported as "<requirement>, not <what it is>", for anything else.
    private mutating func entries(of node: YAMLNode, describedAs requirement: String) -> [YAMLMappingEntry]? {
        if node.scalar?.value == .null { return [] }
        if let entries = node.mapping { return entries }
        diagnostics.append(Diagnostic(.wrongValueKind, "\(requirement), not \(node.kindDescription)", at: node.location))
        return nil
    }

    private mutating func bool(_ entry: YAMLMappingEntry, in context: @autoclosure () -> String) -> Located<Bool>? {
        if let scalar = entry.value.scalar, case .bool(let flag) = scalar.value {
            return Located(flag, at: entry.value.location)
        }
        diagnostics.append(Diagnostic(.wrongValueKind, "'\(entry.key.text)' of \(context()) must be true or false, not \(entry.value.kindDescription)", at: entry.value.location))
        return nil
    }

    /// A whole number (`maxBytes: 4096`).
    private mutating func integer(_ entry: YAMLMappingEntry, in context: @autoclosure () -> String) -> Located<Int64>? {
        if let scalar = entry.value.scalar, case .int(let number) = scalar.value {
            return Located(number, at: entry.value.location)
        }
        diagnostics.append(Diagnostic(.wrongValueKind, "'\(entry.key.text)' of \(context()) must be a whole number, not \(entry.value.kindDescription)", at: entry.value.location))
        return nil
    }

    /// A name or word: any non-empty text, plain or quoted.
    private mutating func text(_ entry: YAMLMappingEntry, in context: @autoclosure () -> String) -> Located<String>? {
        if let scalar = entry.value.scalar, case .string(let text) = scalar.value, !text.isEmpty {
            return Located(text, at: entry.value.location)
        }
        diagnostics.append(Diagnostic(.wrongValueKind, "'\(entry.key.text)' of \(context()) must be a name, not \(entry.value.kindDescription)", at: entry.value.location))
        return nil
    }

    /// Words for people (a `description`): any text, a number or `yes` read as written, trimmed
    /// of the spaces and line breaks around it (a `|` block ends in one).
    private mutating func prose(_ entry: YAMLMappingEntry, in context: @autoclosure () -> String) -> Located<String>? {
        guard let scalar = entry.value.scalar, scalar.value != .null else {
            diagnostics.append(Diagnostic(.wrongValueKind, "'\(entry.key.text)' of \(context()) must be text, not \(entry.value.kindDescription)", at: entry.value.location))
            return nil
        }
        let text = String(scalar.text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        if !text.isEmpty { return Located(text, at: entry.value.location) }
        diagnostics.append(Diagnostic(.wrongValueKind, "'\(entry.key.text)' of \(context()) is empty: say what it means, or leave the key out", at: entry.value.location))
        return nil
    }

    /// An `enum`'s cases: each a name, or a name and what it means (`- urgent: Needed today`).
    private mutating func cases(
        _ entry: YAMLMappingEntry, in context: @autoclosure () -> String
    ) -> (Located<[Located<String>]>?, [String: Located<String>]) {
        guard let items = entry.value.sequence else {
            diagnostics.append(Diagnostic(.wrongValueKind, "'cases' of \(context()) must be a list, not \(entry.value.kindDescription)", at: entry.value.location))
            return (nil, [:])
        }
        var names: [Located<String>] = []
        var documentation: [String: Located<String>] = [:]
        for item in items {
            if let scalar = item.scalar, case .string(let name) = scalar.value, !name.isEmpty {
                names.append(Located(name, at: item.location))
            } else if let described = item.mapping, described.count == 1, case .string(let name) = described[0].key.value, !name.isEmpty {
                names.append(Located(name, at: described[0].keyLocation))
                documentation[name] = prose(described[0], in: "case '\(name)' of \(context())")
            } else {
                diagnostics.append(Diagnostic(
                    .wrongValueKind, "each entry of 'cases' of \(context()) must be a name, or a name and what it means ('- urgent: Needed today'), not \(item.kindDescription)",
                    at: item.location))
            }
        }
        return (Located(names, at: entry.value.location), documentation)
    }

    /// A list of names or words.
    private mutating func words(_ entry: YAMLMappingEntry, in context: @autoclosure () -> String) -> Located<[Located<String>]>? {
        guard let items = entry.value.sequence else {
            diagnostics.append(Diagnostic(.wrongValueKind, "'\(entry.key.text)' of \(context()) must be a list, not \(entry.value.kindDescription)", at: entry.value.location))
            return nil
        }
        var words: [Located<String>] = []
        for item in items {
            if let scalar = item.scalar, case .string(let text) = scalar.value, !text.isEmpty {
                words.append(Located(text, at: item.location))
            } else {
                diagnostics.append(Diagnostic(.wrongValueKind, "each entry of '\(entry.key.text)' of \(context()) must be a name, not \(item.kindDescription)", at: item.location))
            }
        }
        return Located(words, at: entry.value.location)
    }
}
