import SyncGenerator

/// Faults planted in about a third of the random schemas: one of each rule group, so a run
/// checks that each reaches its error wherever in a schema it lands, beside whatever else the
/// schema holds.
extension SchemaDraw {
    mutating func plantFaults() {
        guard chance(0.3) else { return }
        for _ in 0..<number(1...2) {
            // A fault that does not fit this schema (no public model to misuse, say) draws again.
            for _ in 0..<10 {
                if let fault = plantOneFault() {
                    faults.append(fault)
                    break
                }
            }
        }
    }

    private mutating func plantOneFault() -> PlantedFault? {
        switch number(0...32) {
        case 30:
            return modelFault("a natural key naming no field", .unknownKeyField, where: { !$0.isPublic }) { $0.unique = [["noSuchField"]] }
        case 31:
            guard let index = models.indices.first(where: { models[$0].isPublic && !faultedModels.contains(models[$0].name) }) else { return nil }
            faultedModels.insert(models[index].name)
            models[index].fields.append(DrawnField(name: "keyed", type: .scalar("string")))
            models[index].unique = [["keyed"]]
            return PlantedFault(what: "a natural key on a public model", code: .uniqueOnPublicModel)
        case 32:
            return newField("union on a string", .mergePolicyNotForType) { $0.merge = "union" }
        case 0:
            let word = pick(["strng", "integer", "text", "uid"])
            return newField("an unknown type word", .unknownType) { $0.type = .scalar(word) }
        case 1:
            guard let model = models.randomElement(using: &random)?.name else { return nil }
            return newField("a model name as a type", .modelNameUsedAsType) { $0.type = .scalar(model) }
        case 2: return newField("a reference to no model", .unknownReferenceTarget) { $0.type = .reference(to: "Nowhere", onDelete: nil) }
        case 3: return newField("a list without `of`", .missingListElementType) { $0.type = .scalar("list") }
        case 4: return newField("a list of lists", .nestedList) { $0.type = .list(of: .list(of: .scalar("string"))) }
        case 5: return newField("a list of assets", .listOfAssets) { $0.type = .list(of: .scalar("asset")) }
        case 6:
            guard let index = models.indices.randomElement(using: &random) else { return nil }
            for name in ["fileOne", "fileTwo"] where !models[index].fields.contains(where: { $0.name == name }) {
                models[index].fields.append(DrawnField(name: name, type: .scalar("asset")))
            }
            // Two asset fields are valid; a field named as the second's record key is not.
            guard models[index].fields.contains(where: { $0.name == "fileTwo" && $0.type.word == "asset" }),
                !models[index].fields.contains(where: { $0.name == "fileTwoAssetSize" })
            else { return nil }
            models[index].fields.append(DrawnField(name: "fileTwoAssetSize", type: .scalar("int")))
            return PlantedFault(what: "a field named as an asset's record key", code: .reservedFieldName)
        case 7: return newField("an int default that is text", .defaultTypeMismatch) { $0.type = .scalar("int"); $0.defaultValue = "\"abc\"" }
        case 8:
            let date = pick(["2023-02-29", "2024-02-30", "2023-02-29T25:61:61Z", "2024-13-01", "2024-04-31T00:00:00Z"])
            return newField("a date that does not exist", .defaultTypeMismatch) { $0.type = .scalar("date"); $0.defaultValue = date }
        case 9:
            let number = pick(["1e400", "-1e309", "1e-400"])
            return newField("a double a Double cannot hold", .defaultTypeMismatch) { $0.type = .scalar("double"); $0.defaultValue = number }
        case 10: return newField("an int beyond 64 bits", .defaultTypeMismatch) { $0.type = .scalar("int"); $0.defaultValue = "9223372036854775808" }
        case 11: return newField("a default on data", .defaultNotSupported) { $0.type = .scalar("data"); $0.defaultValue = "\"bytes\"" }
        case 12:
            guard let target = models.first(where: { !$0.isPublic })?.name else { return nil }
            return newField("an encrypted reference", .encryptedReference, inPublic: false) {
                $0.type = .reference(to: target, onDelete: nil)
                $0.encrypted = true
            }
        case 13: return newField("an encrypted field with an index", .encryptedIndexed, inPublic: false) { $0.encrypted = true; $0.index = ["queryable"] }
        case 14: return newField("a field both local-only and server-owned", .localOnlyAndServerOwned) { $0.localOnly = true; $0.serverOwned = true }
        case 15: return newField("a searchable int", .searchableNonString) { $0.type = .scalar("int"); $0.index = ["searchable"] }
        case 16: return newField("a misspelt field key", .unknownKey) { $0.extra = [("optinal", "true")] }
        case 17:
            let name = pick(HostileNames.reservedFields + ["recordName", "ownerName", "parent", "id"])
            return newField("a reserved field name", .reservedFieldName) { $0.name = name }
        case 18:
            let name = pick(HostileNames.unicodeNames + ["g" + String(repeating: "w", count: 255), "9lives"])
            return newField("a field name CloudKit refuses", .invalidFieldName) { $0.name = name }
        // On models that are not public: a public parent another fault planted must stay public.
        case 19: return modelFault("scopes: [private, public]", .privateAndPublicScopes, where: { !$0.isPublic }) { $0.scopes = ["private", "public"] }
        case 20: return modelFault("an unknown scope", .unknownScope, where: { !$0.isPublic }) { $0.scopes = ["privat"] }
        case 21:
            return modelFault("shareable without the shared scope", .shareableWithoutSharedScope, where: { !$0.isPublic && !$0.isShared }) { $0.shareable = true }
        case 22:
            guard let publicModel = models.first(where: \.isPublic)?.name else { return nil }
            return modelFault("a public parent", .publicParent, where: { !$0.isPublic && $0.name != publicModel }) { $0.parent = publicModel }
        case 23:
            let plain = models.indices.filter { models[$0].role == .plain && models[$0].parent == nil }
            guard plain.count >= 2 else { return nil }
            models[plain[0]].parent = models[plain[1]].name
            models[plain[1]].parent = models[plain[0]].name
            return PlantedFault(what: "a parent cycle", code: .parentCycle)
        case 24:
            return modelFault("a projection field the draft lacks", .projectionFieldMissingInDraft, where: { $0.role == .projection }) {
                $0.fields.append(DrawnField(name: "neverPublished", type: .scalar("string")))
            }
        case 25: return modelFault("a catalog on a private model", .catalogOnNonPublicModel, where: { !$0.isPublic }) { $0.catalog = [("governed", "true")] }
        case 26:
            // The twin may be the declaration that counts (files are read in name order): only a
            // plain model nothing depends on can have one without changing what other faults need.
            let parents = Set(models.compactMap(\.parent))
            let candidates = models.indices.filter {
                models[$0].role == .plain && models[$0].publishAs == nil && !parents.contains(models[$0].name) && !faultedModels.contains(models[$0].name)
            }
            guard let index = candidates.randomElement(using: &random) else { return nil }
            faultedModels.insert(models[index].name)
            // In the same file or another: either way, the model's name twice.
            let file = fileCount == 1 ? 0 : (models[index].file + number(1...(fileCount - 1))) % fileCount
            var twin = DrawnModel(name: models[index].name, role: .plain, file: file)
            twin.recordType = "TwinRecord"
            models.append(twin)
            return PlantedFault(what: "one model name twice", code: .duplicateModel)
        case 27:
            // Another number is the wrong version; text, or a number that is no integer, the wrong kind.
            guard let file = fileWithoutTextFault() else { return nil }
            let version = pick(["2", "\"1\"", "1.0"])
            textFaults[file] = .version(version)
            return PlantedFault(what: "version: \(version)", code: version == "2" ? .unsupportedVersion : .wrongValueKind)
        case 28:
            guard let file = fileWithoutTextFault() else { return nil }
            let fault: TextFault = pick([.unclosedFlow, .overlongKey(1025 + number(0...9000))])
            textFaults[file] = fault
            return PlantedFault(what: "YAML that does not parse", code: .yamlSyntax)
        default:
            guard let file = fileWithoutTextFault() else { return nil }
            let tag = chance(0.5)
            textFaults[file] = tag ? .tag : .mergeKey
            return tag ? PlantedFault(what: "a YAML tag", code: .tagUnsupported) : PlantedFault(what: "a YAML merge key", code: .mergeKeyUnsupported)
        }
    }

    /// A file with no text fault yet: one per file, so that none overwrites another.
    private mutating func fileWithoutTextFault() -> Int? {
        (0..<fileCount).filter { textFaults[$0] == nil }.randomElement(using: &random)
    }

    /// Adds a field to a random model (public or not, as asked), shaped by `shape`.
    private mutating func newField(
        _ what: String, _ code: DiagnosticCode, inPublic: Bool? = nil, shape: (inout DrawnField) -> Void
    ) -> PlantedFault? {
        let candidates = models.indices.filter { inPublic == nil || models[$0].isPublic == inPublic }
        guard let index = candidates.randomElement(using: &random) else { return nil }
        var field = DrawnField(name: "planted", type: .scalar("string"))
        shape(&field)
        guard !models[index].fields.contains(where: { $0.name == field.name }) else { return nil }
        models[index].fields.append(field)
        return PlantedFault(what: what, code: code)
    }

    /// Changes a random model that fits, and that no other fault changed: two faults in one
    /// model's keys can hide each other (an unknown scope leaves `shareable` nothing to check).
    private mutating func modelFault(
        _ what: String, _ code: DiagnosticCode, where fits: (DrawnModel) -> Bool = { _ in true }, change: (inout DrawnModel) -> Void
    ) -> PlantedFault? {
        let candidates = models.indices.filter { fits(models[$0]) && !faultedModels.contains(models[$0].name) }
        guard let index = candidates.randomElement(using: &random) else { return nil }
        faultedModels.insert(models[index].name)
        change(&models[index])
        return PlantedFault(what: what, code: code)
    }
}
