import SyncCore

/// Prints one model: a plain struct with its fields, then its conformances to the runtime's
/// protocols, each in its own extension under a `MARK`.
struct ModelGenerator {
    let model: Model
    let source: String
    let context: GenerationContext

    private var access: String { context.access }
    private var name: String { model.name }
    /// Fields the struct stores, in schema order.
    private var fields: [Field] { model.fields }
    private var catalog: Catalog? { model.catalog }

    func print(into printer: inout SwiftPrinter) {
        printStruct(into: &printer)
        printEnumerations(into: &printer)
        printer.line()
        printer.line("// MARK: - Sync bridge")
        printer.line()
        printSyncModel(into: &printer)
        if model.isShareable {
            printer.line()
            printShareable(into: &printer)
        }
        if !model.assetFields.isEmpty {
            printer.line()
            printCacheable(into: &printer)
        }
        if fields.contains(where: { $0.indexes.contains(.searchable) }) {
            printer.line()
            printTextSearchable(into: &printer)
        }
        if let catalog {
            printer.line()
            printCatalog(catalog, into: &printer)
        }
        printer.line()
        printServerFields(into: &printer)
        let custom = fields.filter { $0.mergePolicy == .custom }
        if !custom.isEmpty {
            printer.line()
            printCustomMerging(custom, into: &printer)
        }
        if let projection = model.publishAs.flatMap(context.schema.model(named:)) {
            printer.line()
            printPublishable(into: projection, printer: &printer)
        }
    }

    // MARK: - The struct

    private func printStruct(into printer: inout SwiftPrinter) {
        printer.documentation(summary)
        printer.block("\(access)struct \(name): Swift.Sendable, Swift.Hashable") { body in
            body.documentation("The record's name: the same on every device and in the cloud.")
            body.line("\(access)var recordName: Swift.String")
            body.documentation("The owner of the zone the record lives in.")
            body.line("\(access)var ownerName: Swift.String")
            if let parent = model.parent {
                body.documentation("The record's CKRecord.parent: the `\(parent)` it belongs to.")
                body.line("\(access)var parent: SyncCore.RecordReference<\(parent)>?")
            }
            for field in fields {
                let documentation = [field.documentation, note(for: field)].compactMap(\.self)
                if !documentation.isEmpty { body.documentation(documentation.joined(separator: "\n\n")) }
                let property = "\(access)var \(SwiftSpelling.identifier(field.name)): \(SwiftSpelling.type(of: field))"
                guard let deprecation = field.deprecation else {
                    body.line(property)
                    continue
                }
                // Out of the initializer, so it starts at its empty value here; reading it warns.
                body.line("@available(*, deprecated, message: \(QuotedText.swift(deprecation.isEmpty ? Self.givenUp : deprecation)))")
                body.line("\(property) = \(SwiftSpelling.emptyValue(of: field))")
            }
            if catalog?.isGoverned == true {
                body.documentation("Publication state, version and review: kept by the runtime.")
                body.line("\(access)var publicationLifecycle: SyncCore.PublicationLifecycle")
            }
            body.line()
            printMemberwiseInit(into: &body)
        }
    }

    private var summary: String {
        let scopes = model.scopes.scopes.map(\.rawValue).joined(separator: ", ")
        var lines = model.documentation.map { [$0, ""] } ?? []
        lines.append("A record of type `\(model.recordType)` in [\(scopes)], from \(source).")
        if let parent = model.parent { lines.append("Its CKRecord.parent is a `\(parent)`.") }
        if model.isShareable { lines.append("It can be the root of a share.") }
        if let projection = model.publishAs { lines.append("It publishes as `\(projection)`.") }
        if let draft = context.schema.draft(publishingInto: name) { lines.append("It is the public projection of `\(draft.name)`.") }
        return lines.joined(separator: "\n")
    }

    /// What reading a field the schema gave up says, when the schema says nothing more.
    static let givenUp = "given up in the schema; kept in the record for older app versions"
    /// What the declarations that read every field (the bridge's, the projection's) say: they
    /// read the given-up ones too, for the runtime, without a warning in generated code.
    static let readsGivenUpFields = "reads the fields the schema gave up, for the runtime"

    private func note(for field: Field) -> String? {
        if field.deprecation != nil { return "Given up in the schema: kept in the record and carried through every save, so an older app version's value is never lost." }
        if field.isLocalOnly { return "Kept on this device: never uploaded, never overwritten by a pull." }
        if field.isServerOwned { return "Owned by the server: never uploaded, always taken from the server." }
        if field.isEncrypted { return "Stored encrypted in CloudKit." }
        if field.type == .scalar(.asset) { return "The attached file's markers; the file lives in the asset cache." }
        return nil
    }

    /// The fields the initializer takes: all but those the schema gave up.
    private var initialized: [Field] { fields.filter { $0.deprecation == nil } }

    private func printMemberwiseInit(into printer: inout SwiftPrinter) {
        var parameters = [
            "recordName: Swift.String = Foundation.UUID().uuidString",
            "ownerName: Swift.String = SyncCore.SyncConstants.currentUserOwnerName",
        ]
        if let parent = model.parent {
            parameters.append("parent: SyncCore.RecordReference<\(parent)>? = nil")
        }
        for field in initialized {
            let parameter = "\(SwiftSpelling.identifier(field.name)): \(SwiftSpelling.type(of: field))"
            parameters.append(SwiftSpelling.initialValue(of: field).map { "\(parameter) = \($0)" } ?? parameter)
        }
        if let catalog, catalog.isGoverned {
            parameters.append("publicationLifecycle: SyncCore.PublicationLifecycle = SyncCore.PublicationLifecycle(state: .\(catalog.initialState.rawValue))")
        }
        let described = initialized.filter { $0.documentation != nil }
        if !described.isEmpty {
            // Quick Help and completion show the schema's words for each argument too.
            let lines = described.map { "  - \(SwiftSpelling.identifier($0.name)): \($0.documentation!.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n    "))" }
            printer.documentation((["`\(name)`, each field given or left to its default.", "", "- Parameters:"] + lines).joined(separator: "\n"))
        }
        printer.line("\(access)init(")
        for (index, parameter) in parameters.enumerated() {
            printer.line("    " + parameter + (index == parameters.count - 1 ? "" : ","))
        }
        printer.block(")") { body in
            body.line("self.recordName = recordName")
            body.line("self.ownerName = ownerName")
            if model.parent != nil { body.line("self.parent = parent") }
            for field in initialized {
                let identifier = SwiftSpelling.identifier(field.name)
                body.line("self.\(identifier) = \(identifier)")
            }
            if catalog?.isGoverned == true { body.line("self.publicationLifecycle = publicationLifecycle") }
        }
    }

    // MARK: - SyncModel

    private func printSyncModel(into printer: inout SwiftPrinter) {
        printer.block("extension \(name): SyncCore.SyncModel") { body in
            body.line("\(access)static let recordType: Swift.String = \(QuotedText.swift(model.recordType))")
            body.line("\(access)static let syncScopes: Swift.Set<SyncCore.DatabaseScope> = [\(model.scopes.scopes.map { ".\($0.rawValue)" }.joined(separator: ", "))]")
            let parentType = model.parent.flatMap { context.schema.model(named: $0)?.recordType }.map(QuotedText.swift) ?? "nil"
            body.line("\(access)static let parentRecordType: Swift.String? = \(parentType)")
            if let zone = model.zone {
                body.documentation("The zone this model's records live in, rather than the app's sync zone.")
                body.line("\(access)static let zoneName: Swift.String? = \(QuotedText.swift(zone))")
            }
            let children = context.schema.childNames(of: model.name)
            if !children.isEmpty {
                body.documentation("Deleting a `\(name)` deletes the \(children.map { "`\($0)`" }.joined(separator: " and ")) records under it too.")
            }
            body.line("\(access)static var childTypes: [any SyncCore.SyncModel.Type] { [\(children.map { "\($0).self" }.joined(separator: ", "))] }")
            if !model.uniqueKeys.isEmpty || model.mergePolicy != nil { body.line() }
            if !model.uniqueKeys.isEmpty {
                body.documentation("The natural keys: records of one zone equal on every field of a key are one record.")
                let keys = model.uniqueRecordKeys.map { "[" + $0.map(QuotedText.swift).joined(separator: ", ") + "]" }
                body.line("\(access)static let uniqueKeys: [[Swift.String]] = [\(keys.joined(separator: ", "))]")
            }
            if let policy = model.mergePolicy {
                body.documentation("How a field both sides changed is settled, unless the field says otherwise.")
                body.line("\(access)static let conflictPolicy: SyncCore.ConflictPolicy? = .\(policy.rawValue)")
            }
            body.line()
            body.line("\(access)var parentRecordName: Swift.String? { \(model.parent == nil ? "nil" : "parent?.recordName") }")
            body.line()
            printFieldTable(into: &body)
        }
    }

    /// The field table: each field once, with the property that holds it. Every direction the
    /// runtime moves the model in (upload, download, the device's own copy) and the descriptors
    /// are read from it, so no two of them can disagree about a field.
    private func printFieldTable(into printer: inout SwiftPrinter) {
        var rows: [String] = []
        if model.parent != nil { rows.append(".parent(\\Self.parent)") }
        rows += fields.map(fieldRow)
        if catalog?.isGoverned == true { rows.append(".publicationLifecycle(\\Self.publicationLifecycle)") }
        let required = initialized.filter { SwiftSpelling.initialValue(of: $0) == nil }
        let readsGivenUp = fields.contains { $0.deprecation != nil }
        let emptyArguments = ["recordName: recordName", "ownerName: ownerName"]
            + required.map { "\(SwiftSpelling.argumentLabel($0.name)): \(SwiftSpelling.emptyValue(of: $0))" }
        printer.documentation(
            "The sync bridge, the runtime's alone: every field once (what the record uploads, downloads and keeps on this device is read from here), "
                + "the values a deleted record keeps, declared on `\(name)` itself so each key path is the concrete type's own, "
                + "and the empty record a pulled one is decoded into.")
        if readsGivenUp { printer.line("@available(*, deprecated, message: \(QuotedText.swift(Self.readsGivenUpFields)))") }
        printer.line("\(access)static let _syncFields = SyncCore.ModelFields<Self>(")
        printer.line("    \(rows.isEmpty ? "[]" : "fieldTable()"),")
        printer.line("    tombstone: [SyncCore.TombstoneKeyPath(\"recordName\", \\Self.recordName), SyncCore.TombstoneKeyPath(\"ownerName\", \\Self.ownerName)],")
        printer.line("    empty: { recordName, ownerName in Self(\(emptyArguments.joined(separator: ", "))) })")
        guard !rows.isEmpty else { return }
        printer.line()
        printer.documentation("Built in a function rather than in the initializer, so the compiler specializes each row for its field's type.")
        if readsGivenUp { printer.line("@available(*, deprecated, message: \(QuotedText.swift(Self.readsGivenUpFields)))") }
        printer.block("private static func fieldTable() -> [SyncCore.ModelField<Self>]") { body in
            body.line("[")
            for row in rows { body.line("    \(row),") }
            body.line("]")
        }
    }

    /// `.field("title", \Note.title)`, with the builder for the field's kind and its options.
    private func fieldRow(_ field: Field) -> String {
        var arguments = [QuotedText.swift(field.recordKey), "\\Self.\(SwiftSpelling.identifier(field.name))"]
        let builder: String
        switch field.type {
        case .scalar(.asset):
            builder = "asset"
        case .reference(_, let action):
            builder = "reference"
            arguments.append("onDelete: .\(action.rawValue)")
        case .list(.reference(_, let action)):
            builder = "references"
            arguments.append("onDelete: .\(action.rawValue)")
        default:
            builder = "field"
        }
        var options: [String] = []
        if field.isEncrypted { options.append(".encrypted") }
        if field.isLocalOnly { options.append(".localOnly") }
        if field.isServerOwned { options.append(".serverOwned") }
        // A searchable text is found through the model's search index, not an SQL index of its
        // whole value.
        if field.indexes.contains(.queryable) || field.indexes.contains(.sortable) { options.append(".indexed") }
        if field.indexes.contains(.searchable) { options.append(".searchable") }
        if options.count == 1 { arguments.append(options[0]) }
        if options.count > 1 { arguments.append("[\(options.joined(separator: ", "))]") }
        if let merge = field.mergePolicy { arguments.append("merge: .\(merge.rawValue)") }
        return ".\(builder)(\(arguments.joined(separator: ", ")))"
    }

    /// The Swift enums of the model's `enum` fields, members of the model.
    private func printEnumerations(into printer: inout SwiftPrinter) {
        let enums = fields.compactMap { field in field.enumeration.map { (field, $0) } }
        guard !enums.isEmpty else { return }
        printer.line()
        printer.line("// MARK: - Enums")
        printer.line()
        printer.block("extension \(name)") { body in
            for (index, (field, enumeration)) in enums.enumerated() {
                if index > 0 { body.line() }
                EnumGenerator(field: field, enumeration: enumeration, access: access).print(into: &body)
            }
        }
    }

    // MARK: - Refinements

    private func printShareable(into printer: inout SwiftPrinter) {
        printer.line("// MARK: - Sharing")
        printer.line()
        printer.block("extension \(name): SyncCore.ShareableModel") { body in
            body.documentation("The title people see when they are invited.")
            body.line("\(access)var shareTitle: Swift.String { \(shareTitleExpression) }")
        }
    }

    /// The first required, uploaded string field (preferring `title` and `name`), or the record type.
    private var shareTitleExpression: String {
        let candidates = fields.filter { $0.type == .scalar(.string) && !$0.isOptional && !$0.isLocalOnly }
        let preferred = candidates.first { $0.name == "title" } ?? candidates.first { $0.name == "name" } ?? candidates.first
        return preferred.map { "self." + SwiftSpelling.identifier($0.name) } ?? "Self.recordType"
    }

    /// The asset fields are the field table's `.asset` rows: the conformance only lets the
    /// engine's asset calls take the model's key paths.
    private func printCacheable(into printer: inout SwiftPrinter) {
        printer.line("// MARK: - Assets")
        printer.line()
        let keyPaths = model.assetFields.map { "`\\\(name).\(SwiftSpelling.identifier($0.field.name))`" }.joined(separator: ", ")
        printer.documentation("The engine's asset calls name a file by its field's key path: \(keyPaths).")
        printer.line("extension \(name): SyncCore.CacheableModel {}")
    }

    /// The searchable fields are the field table's `.searchable` rows: the conformance only lets
    /// a `Query` of the model search their text.
    private func printTextSearchable(into printer: inout SwiftPrinter) {
        printer.line("// MARK: - Text search")
        printer.line()
        let names = fields.filter { $0.indexes.contains(.searchable) }.map { "`\\\(name).\(SwiftSpelling.identifier($0.name))`" }.joined(separator: ", ")
        printer.documentation("A `Query` of the model may search the words of \(names), on the device (`matching(_:)`).")
        printer.line("extension \(name): SyncCore.TextSearchable {}")
    }

    private func printCatalog(_ catalog: Catalog, into printer: inout SwiftPrinter) {
        printer.line("// MARK: - Catalog")
        printer.line()
        let conformance = catalog.isGoverned ? "SyncCore.PublicationGovernedModel" : "SyncCore.PublicCatalogModel"
        printer.block("extension \(name): \(conformance)") { body in
            body.documentation("Asset contents are never fetched by catalog queries: readers download them on demand.")
            printKeys("catalogDesiredKeys", CatalogKeys.desiredKeys(of: model), into: &body)
            body.line("\(access)static let initialPublicationState: SyncCore.PublicationState = .\(catalog.initialState.rawValue)")
        }
    }

    /// The fields a server query may name, each with its indexes as a type: a condition or sort
    /// the deployed schema cannot answer does not compile.
    private func printServerFields(into printer: inout SwiftPrinter) {
        printer.line("// MARK: - Server queries")
        printer.line()
        let searchable = model.fields.contains { $0.indexes.contains(.searchable) && !$0.isLocalOnly }
        printer.block("extension \(name): SyncCore.ServerQueryable\(searchable ? ", SyncCore.ServerTextSearchable" : "")") { body in
            body.documentation("What a `ServerQuery` may name: each field, with its CloudKit indexes as a type.")
            body.block("\(access)struct ServerFields: Swift.Sendable") { members in
                for field in serverQueryFields {
                    let index = "SyncCore.ServerIndexes.\(Self.indexType(field.indexes))"
                    // A list is named by its element: a condition on it is membership (`contains`).
                    let (kind, value) = if case .list(let element) = field.type {
                        ("ServerListField", SwiftSpelling.type(of: element, enumeration: field.enumeration))
                    } else {
                        ("ServerField", SwiftSpelling.type(of: field.type, enumeration: field.enumeration))
                    }
                    if let deprecation = field.deprecation {
                        members.line("@available(*, deprecated, message: \(QuotedText.swift(deprecation.isEmpty ? Self.givenUp : deprecation)))")
                    }
                    members.line("\(access)let \(SwiftSpelling.identifier(field.name)) = SyncCore.\(kind)<\(name), \(value), \(index)>(\(QuotedText.swift(field.recordKey)))")
                }
            }
            body.line("\(access)static let serverFields = ServerFields()")
            body.documentation("What a page of a server query fetches: every field but asset contents.")
            let keys = CatalogKeys.serverQueryKeys(of: model)
            if catalog != nil, keys == CatalogKeys.desiredKeys(of: model) {
                body.line("\(access)static var serverQueryKeys: [Swift.String] { catalogDesiredKeys }")
            } else {
                printKeys("serverQueryKeys", keys, into: &body)
            }
        }
    }

    /// A static list of record keys: on one line when short, one key a line otherwise.
    private func printKeys(_ property: String, _ keys: [String], into printer: inout SwiftPrinter) {
        let quoted = keys.map(QuotedText.swift)
        guard quoted.count > 4 else {
            printer.line("\(access)static let \(property): [Swift.String] = [\(quoted.joined(separator: ", "))]")
            return
        }
        printer.line("\(access)static let \(property): [Swift.String] = [")
        for key in quoted { printer.line("    \(key),") }
        printer.line("]")
    }

    /// The fields a server query may name: those whose values CloudKit compares (Apple, `CKQuery`,
    /// "Predicate Rules for Query Objects": strings, dates, numbers, lists, references and
    /// locations), so not data or assets, nor a list of locations (compared only by distance).
    private var serverQueryFields: [Field] {
        fields.filter { field in
            guard !field.isLocalOnly else { return false }
            switch field.type {
            case .list(.scalar(.location)): return false
            case .list(let element): return Self.isCompared(element, enumerated: field.enumeration != nil)
            default: return Self.isCompared(field.type, enumerated: field.enumeration != nil)
            }
        }
    }

    /// Whether CloudKit compares a value of this (single) type: text, numbers, truth values,
    /// dates, locations, an enum's case, a reference.
    private static func isCompared(_ type: FieldType, enumerated: Bool) -> Bool {
        switch type {
        case .scalar(let scalar): enumerated || [.string, .int, .double, .bool, .date, .location].contains(scalar)
        case .reference: true
        case .list: false
        }
    }

    /// The `SyncCore.ServerIndexes` type of a field's indexes: their names in CloudKit's order
    /// (queryable, sortable, searchable), or `None`.
    static func indexType(_ indexes: [IndexKind]) -> String {
        let names = [IndexKind.queryable, .sortable, .searchable].filter(indexes.contains).map { $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst() }
        return names.isEmpty ? "None" : names.joined()
    }

    /// The conformance whose one requirement the app writes: the build asks for it by name.
    private func printCustomMerging(_ custom: [Field], into printer: inout SwiftPrinter) {
        printer.line("// MARK: - Custom merges")
        printer.line()
        let names = custom.map { "`\($0.name)`" }.joined(separator: ", ")
        printer.documentation("""
            The schema marks \(names) `merge: custom`: write `static func merge(_:ancestor:local:server:into:)` \
            in an extension of `\(name)` to settle \(custom.count == 1 ? "its" : "their") conflicts.
            """)
        printer.line("extension \(name): SyncCore.CustomMergingModel {}")
    }

    private func printPublishable(into projection: Model, printer: inout SwiftPrinter) {
        printer.line("// MARK: - Publishing")
        printer.line()
        printer.block("extension \(name): SyncCore.PublishableModel") { body in
            body.line("\(access)typealias Projection = \(projection.name)")
            body.line()
            body.documentation("Copies the fields `\(projection.name)` declares; a nil value keeps the published one.")
            let copied = projection.fields.filter { !$0.isLocalOnly && !$0.isServerOwned }
            if copied.contains(where: { $0.deprecation != nil || model.field(named: $0.name)?.deprecation != nil }) {
                body.line("@available(*, deprecated, message: \(QuotedText.swift(Self.readsGivenUpFields)))")
            }
            body.block("\(access)func project(onto projection: inout \(projection.name))") { method in
                if copied.isEmpty { method.line("_ = projection") }
                for field in copied {
                    let identifier = SwiftSpelling.identifier(field.name)
                    let value: (String) -> String
                    switch (field.type, field.enumeration) {
                    case (.reference, _): value = { "SyncCore.RecordReference(recordName: \($0).recordName)" }
                    case (.list(.reference), _): value = { "\($0).map { SyncCore.RecordReference(recordName: $0.recordName) }" }
                    // Each model has its own enum: the value goes over by its name. The type is
                    // named through `Projection`: the model's own name may mean a member here.
                    case (.list, let enumeration?): value = { "\($0).map { Projection.\(enumeration.typeName)(rawValue: $0.rawValue) }" }
                    case (_, let enumeration?): value = { "Projection.\(enumeration.typeName)(rawValue: \($0).rawValue)" }
                    default: value = { $0 }
                    }
                    // The model's own fields are named through `self`: a field may be called
                    // `projection` too.
                    if field.isOptionalInSwift {
                        method.line("if let value = self.\(identifier) { projection.\(identifier) = \(value("value")) }")
                    } else {
                        method.line("projection.\(identifier) = \(value("self." + identifier))")
                    }
                }
            }
        }
    }
}
