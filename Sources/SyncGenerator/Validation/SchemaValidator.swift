/// Checks the parsed schema files against every rule of the schema language, and resolves them into
/// a ``Schema`` when nothing is wrong.
///
/// Each group of rules lives in its own file as an extension of ``ValidationContext``; this type only
/// runs them in order. Rules never stop at the first problem: each reports what it finds and the
/// next runs on whatever could be resolved.
package enum SchemaValidator {
    /// The diagnostics of every rule, and the resolved schema when none of them is an error. The
    /// documents may come with errors of their own from earlier stages: the caller then discards
    /// the schema. `besides` are schema files next to the given ones that this run does not
    /// check: a model name the given files leave unresolved but one of them declares is reported
    /// with where it is declared.
    package static func validate(_ documents: [SchemaDocument], besides: [SchemaDocument] = []) -> (schema: Schema?, diagnostics: [Diagnostic]) {
        var context = ValidationContext(documents: documents, besides: besides)
        context.checkNames()
        context.checkDuplicates()
        context.resolveScopes()
        context.resolveFieldTypes()
        context.checkDefaults()
        context.checkReferences()
        context.checkFieldOptions()
        context.checkLimits()
        context.checkConvergence()
        context.checkSharing()
        context.checkZones()
        context.checkPublicModels()
        context.checkPublishing()
        context.resolveCatalogs()
        let diagnostics = context.diagnostics.sortedForOutput()
        let schema = diagnostics.hasErrors ? nil : context.assembleSchema()
        return (schema, diagnostics)
    }
}

/// One model declaration's place in the whole schema: declarations are numbered in file order,
/// then in the order their file declares them.
typealias ModelID = Int

/// A field, by its model and its position in that model.
struct FieldID: Hashable {
    var model: ModelID
    var index: Int
}

/// A value for some fields of the schema, stored by position rather than hashed: the rules read
/// and write one for every field, so this is the validator's innermost loop.
struct FieldTable<Value> {
    private var values: [[Value?]]

    init(fieldCounts: [Int]) {
        values = fieldCounts.map { Array(repeating: nil, count: $0) }
    }

    subscript(id: FieldID) -> Value? {
        get { values[id.model][id.index] }
        set { values[id.model][id.index] = newValue }
    }
}

/// What the rules share: every declaration, the name index, and what has been resolved so far.
struct ValidationContext {
    let models: [ModelDeclaration]
    /// Each model name to its first declaration; later ones are duplicates (already reported).
    let modelIDs: [String: ModelID]
    var diagnostics: [Diagnostic] = []
    /// Scopes of each declaration whose `scopes` are valid.
    var scopes: [ModelID: ScopeSet] = [:]
    /// Types of each field whose type is valid.
    var fieldTypes: FieldTable<FieldType>
    /// The cases of each enum field (or list of enums) whose cases are valid.
    var enumCases: FieldTable<[String]>
    var defaults: FieldTable<FieldDefault>
    var indexes: FieldTable<[IndexKind]>
    var catalogs: [ModelID: Catalog] = [:]
    /// The natural keys of each declaration whose keys are all valid.
    var uniqueKeys: [ModelID: [[String]]] = [:]
    /// The `merge` policy of each model and field that states a valid one.
    var modelMergePolicies: [ModelID: MergePolicyName] = [:]
    var fieldMergePolicies: FieldTable<MergePolicyName>
    /// Models declared in schema files beside the given ones, which this run does not check.
    let declaredBesides: [String: SourceLocation]

    init(documents: [SchemaDocument], besides: [SchemaDocument] = []) {
        models = documents.sorted { $0.file < $1.file }.flatMap(\.models)
        var ids: [String: ModelID] = [:]
        for (id, model) in models.enumerated() where ids[model.name.value] == nil {
            ids[model.name.value] = id
        }
        modelIDs = ids
        let fieldCounts = models.map(\.fields.count)
        fieldTypes = FieldTable(fieldCounts: fieldCounts)
        enumCases = FieldTable(fieldCounts: fieldCounts)
        defaults = FieldTable(fieldCounts: fieldCounts)
        indexes = FieldTable(fieldCounts: fieldCounts)
        fieldMergePolicies = FieldTable(fieldCounts: fieldCounts)
        var besideNames: [String: SourceLocation] = [:]
        for model in besides.sorted(by: { $0.file < $1.file }).flatMap(\.models) where besideNames[model.name.value] == nil {
            besideNames[model.name.value] = model.name.location
        }
        declaredBesides = besideNames
    }

    var allModelIDs: Range<ModelID> { models.indices }

    /// The declaration `name` resolves to, if any.
    func modelID(named name: String) -> ModelID? { modelIDs[name] }

    /// Declarations that are not duplicates of an earlier one: the ones the schema is built from.
    var canonicalModelIDs: [ModelID] {
        allModelIDs.filter { modelIDs[models[$0].name.value] == $0 }
    }

    func fieldIDs(of model: ModelID) -> [FieldID] {
        models[model].fields.indices.map { FieldID(model: model, index: $0) }
    }

    @inline(__always) func field(_ id: FieldID) -> FieldDeclaration { models[id.model].fields[id.index] }

    @inline(__always) func model(_ id: ModelID) -> ModelDeclaration { models[id] }

    /// "'Note' is declared here", the note that follows a message naming another model.
    func declaredHere(_ id: ModelID) -> Diagnostic.Note {
        .init("'\(models[id].name.value)' is declared here", at: models[id].name.location)
    }

    /// `"; did you mean 'X'?"` for a misspelt model name, with a note at X's declaration; for a
    /// model declared in a file beside the given ones, where it is, and to pass the folder.
    func modelSuggestion(for name: String) -> (text: String, notes: [Diagnostic.Note]) {
        if let elsewhere = declaredBesides[name] {
            return (
                "; it is declared in '\(elsewhere.file)', which this run does not read: validate the folder to check the files together",
                [.init("'\(name)' is declared here", at: elsewhere)])
        }
        guard let match = Suggestion.closest(to: name, among: modelIDs.keys), let id = modelIDs[match] else {
            return ("", [])
        }
        return (Suggestion.phrase(match), [declaredHere(id)])
    }

    mutating func report(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
    }
}
