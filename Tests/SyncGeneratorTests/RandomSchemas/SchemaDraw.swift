import SyncCore
import SyncGenerator

/// Draws one random schema: models and their roles first (plain, share hierarchies, drafts and
/// their projections, public catalogs), then fields whose references point where the rules let
/// them, then, for some schemas, faults planted on purpose. `render()` writes it as YAML.
struct SchemaDraw {
    var random: SeededRandom
    var models: [DrawnModel] = []
    var faults: [PlantedFault] = []
    /// Models whose keys a fault changed.
    var faultedModels: Set<String> = []
    var fileCount = 1
    /// Faults planted in the text rather than the models: file index -> what is done to it.
    var textFaults: [Int: TextFault] = [:]

    enum TextFault {
        case version(String), unclosedFlow, tag, mergeKey, overlongKey(Int)
    }

    init(random: SeededRandom) {
        self.random = random
    }

    // MARK: - Drawing helpers

    mutating func chance(_ probability: Double) -> Bool {
        Double(random.next() >> 11) / Double(1 << 53) < probability
    }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int(random.next() % UInt64(choices.count))]
    }

    mutating func number(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(random.next() % UInt64(range.count))
    }

    /// An index into `weights`, drawn in proportion to them.
    mutating func weightedIndex(_ weights: [Int]) -> Int {
        var roll = number(0...(weights.reduce(0, +) - 1))
        for (index, weight) in weights.enumerated() {
            if roll < weight { return index }
            roll -= weight
        }
        return 0
    }

    // MARK: - Models

    mutating func drawModels() {
        fileCount = number(1...3)
        var plain = number(0...3)
        let families = chance(0.45) ? number(1...2) : 0
        let publicCount = number(0...2)
        if plain + families + publicCount == 0 && !chance(0.05) { plain = 1 }
        for _ in 0..<plain {
            var model = newModel(role: .plain)
            // A parent chain between private models, without sharing.
            if chance(0.2), let parent = models.filter({ $0.role == .plain }).map(\.name).randomElement(using: &random) {
                model.role = .child
                model.parent = parent
            }
            if chance(0.3) { model.scopes = ["private"] }
            models.append(model)
        }
        for _ in 0..<families {
            var root = newModel(role: .shareRoot)
            root.scopes = chance(0.8) ? ["private", "shared"] : ["shared", "private"]
            root.shareable = true
            models.append(root)
            var family = [root.name]
            for _ in 0..<number(0...3) {
                var child = newModel(role: .child)
                child.scopes = ["private", "shared"]
                child.parent = pick(family)
                models.append(child)
                family.append(child.name)
            }
        }
        // Drafts: any non-public model may publish; each gets a projection of its own.
        for index in models.indices where chance(0.3) {
            var projection = newModel(role: .projection)
            projection.scopes = ["public"]
            models[index].publishAs = projection.name
            models.append(projection)
        }
        for _ in 0..<publicCount {
            var model = newModel(role: .publicModel)
            model.scopes = ["public"]
            models.append(model)
        }
        for index in models.indices where !models[index].isPublic { drawFields(of: index) }
        for index in models.indices where models[index].role == .publicModel { drawFields(of: index) }
        for index in models.indices where models[index].role == .projection { drawProjectionFields(of: index) }
        for index in models.indices where models[index].isPublic && chance(0.6) { drawCatalog(of: index) }
        for index in models.indices where !models[index].isPublic {
            if chance(0.25) { drawUniqueKeys(of: index) }
            if chance(0.15) { models[index].merge = pick(["lastWriterWins", "serverWins", "clientWins"]) }
        }
    }

    /// One or two natural keys of fields every device compares alike.
    private mutating func drawUniqueKeys(of index: Int) {
        let comparable = models[index].fields.filter { field in
            let word = field.type.isScalar ? field.type.word : field.type.isReference && !field.type.word.hasPrefix("list") ? "reference" : "list"
            return ["string", "int", "bool", "date", "url", "uuid", "enum", "reference"].contains(word) && field.isUploaded && field.encrypted != true
        }.map(\.name)
        guard !comparable.isEmpty else { return }
        for _ in 0..<number(1...2) {
            let key = comparable.filter { _ in chance(0.5) }
            let chosen = key.isEmpty ? [pick(comparable)] : Array(key.prefix(3))
            if !models[index].unique.contains(where: { Set($0) == Set(chosen) }) { models[index].unique.append(chosen) }
        }
    }

    /// A merge policy the field's type takes.
    mutating func mergePolicy(for type: DrawnType) -> String {
        var choices = ["lastWriterWins", "serverWins", "clientWins", "custom"]
        switch type {
        case .list: choices.append("union")
        case .scalar(let word) where ["int", "double", "date"].contains(word): choices += ["max", "min"]
        default: break
        }
        return pick(choices)
    }

    private mutating func newModel(role: DrawnModel.Role) -> DrawnModel {
        let name = drawModelName()
        var model = DrawnModel(name: name, role: role, file: number(0...(fileCount - 1)))
        if !isCloudKitName(name) {
            model.recordType = drawRecordType()
        } else if chance(0.12) {
            model.recordType = chance(0.3) ? name : drawRecordType()
        }
        return model
    }

    private var usedRecordTypes: Set<String> {
        Set(models.map { $0.recordType ?? $0.name })
    }

    private mutating func drawRecordType() -> String {
        while true {
            let name = pick(HostileNames.ordinaryModels) + "Record" + (chance(0.5) ? "" : String(number(1...99)))
            if !usedRecordTypes.contains(name) { return name }
        }
    }

    mutating func drawModelName() -> String {
        let taken = Set(models.map(\.name))
        while true {
            let name = switch weightedIndex([35, 18, 15, 10, 9, 5, 3, 2, 3]) {
            case 0: pick(HostileNames.ordinaryModels)
            case 1: randomIdentifier(upperFirst: true)
            case 2: pick(HostileNames.standardTypes)
            case 3: pick(HostileNames.runtimeTypes)
            case 4: pick(HostileNames.generatedNames)
            case 5: pick(HostileNames.keywords)
            case 6: "M" + String(repeating: "x", count: 254)
            case 7: pick(HostileNames.unicodeNames)
            default: "_" + randomIdentifier(upperFirst: true)
            }
            if taken.contains(name) { continue }
            // Names the validator refuses come through now and then; their error is checked.
            if SwiftNaming.typeNameProblem(name) != nil && !chance(0.03) { continue }
            return name
        }
    }

    /// An ASCII identifier of 1 to 13 characters.
    mutating func randomIdentifier(upperFirst: Bool) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let rest = letters + Array("0123456789_")
        var name = String(pick(upperFirst ? Array(letters[26...]) : Array(letters[..<26])))
        for _ in 0..<number(0...12) { name.append(pick(rest)) }
        return name
    }

    // MARK: - Fields

    private mutating func drawFields(of index: Int) {
        let count = chance(0.05) ? number(10...20) : number(0...6)
        for _ in 0..<count {
            let field = drawField(for: models[index])
            models[index].fields.append(field)
        }
    }

    mutating func drawFieldName(in model: DrawnModel) -> String {
        let taken = Set(model.fields.map(\.name))
        let modelNames = models.map(\.name)
        while true {
            let name = switch weightedIndex([35, 14, 16, 12, 6, 8, 3, 2, 2, 1]) {
            case 0: pick(HostileNames.ordinaryFields)
            case 1: randomIdentifier(upperFirst: chance(0.25))
            case 2: pick(HostileNames.generatedNames)
            case 3: pick(HostileNames.keywords)
            case 4: pick(HostileNames.standardTypes + HostileNames.runtimeTypes)
            // The names of the schema's own models, the model's own among them.
            case 5: pick(modelNames)
            case 6: "f" + String(repeating: "q", count: 253) + String(number(0...9))
            case 7: pick(HostileNames.reservedFields)
            case 8: pick(HostileNames.unicodeNames)
            default: "g" + String(repeating: "w", count: 255)
            }
            if taken.contains(name) { continue }
            if (ReservedNames.fieldNameProblem(name) != nil || !isCloudKitName(name)) && !chance(0.04) { continue }
            return name
        }
    }

    private mutating func drawField(for model: DrawnModel) -> DrawnField {
        let targets = referenceTargets(from: model)
        let type: DrawnType = switch weightedIndex([60, 16, model.hasAsset ? 0 : 8, targets.isEmpty ? 0 : 16]) {
        case 0: .scalar(pick(Self.scalarWords))
        case 1: .list(of: listElement(targets: targets))
        case 2: .scalar("asset")
        default: .reference(to: pick(targets), onDelete: pick([nil, nil, "none", "deleteSelf"]))
        }
        var field = DrawnField(name: drawFieldName(in: model), type: type)
        if type.word == "enum" || type.isListOf("enum") { field.cases = drawCases() }
        if chance(0.08) {
            field.localOnly = true
        } else if chance(0.08) {
            field.serverOwned = true
        }
        if chance(0.25) { field.optional = true } else if chance(0.05) { field.optional = false }
        let canEncrypt = !model.isPublic && field.isUploaded && !field.type.isReference
        if canEncrypt && chance(field.type.word == "asset" ? 0.02 : 0.12) { field.encrypted = true }
        if field.isUploaded && field.encrypted != true && chance(0.15) { field.index = indexes(for: field.type) }
        if chance(0.3) { field.defaultValue = defaultLiteral(for: field.type, optional: field.optional == true, cases: field.cases) }
        if chance(0.03) { field.localOnly = field.localOnly ?? false }
        if field.isUploaded && chance(0.12) { field.merge = mergePolicy(for: field.type) }
        return field
    }

    private mutating func listElement(targets: [String]) -> DrawnType {
        if !targets.isEmpty && chance(0.2) {
            return .reference(to: pick(targets), onDelete: pick([nil, "none", "deleteSelf"]))
        }
        return .scalar(pick(Self.scalarWords))
    }

    /// The scalar types a field or a list's element may have (an asset is drawn apart: one per model).
    static let scalarWords = ["string", "int", "double", "bool", "date", "data", "location", "url", "uuid", "enum"]

    /// One to four cases of an enum, among them Swift keywords (written in backticks) and names
    /// of the schema's own words.
    private mutating func drawCases() -> [String] {
        let pool = ["todo", "done", "default", "open", "in", "case", "class", "let", "Status", "string", "list", "a1", "_hidden", "Any", "some", "is"]
        var cases: [String] = []
        for _ in 0..<number(1...4) {
            let name = pick(pool)
            if !cases.contains(name) { cases.append(name) }
        }
        return cases
    }

    /// Models a field of `model` may point at: public to public, the rest among themselves.
    private func referenceTargets(from model: DrawnModel) -> [String] {
        models.filter { $0.isPublic == model.isPublic }.map(\.name)
    }

    private mutating func indexes(for type: DrawnType) -> [String] {
        var kinds = ["queryable"]
        switch type {
        case .scalar(let word) where !["data", "asset", "location"].contains(word):
            kinds.append("sortable")
            if word == "string" { kinds.append("searchable") }
        case .list(.scalar("string")):
            kinds.append("searchable")
        default:
            break
        }
        return kinds.filter { _ in chance(0.6) }.isEmpty ? [pick(kinds)] : kinds.filter { _ in chance(0.7) }
    }

    // MARK: - Defaults

    /// A literal of the type, or nil when the type takes none.
    mutating func defaultLiteral(for type: DrawnType, optional: Bool, cases: [String] = []) -> String? {
        if optional && chance(0.2) { return pick(["null", "~"]) }
        switch type {
        case .scalar("enum"):
            return pick(cases)
        case .list(.scalar("enum")):
            return "[" + (0..<number(0...3)).map { _ in pick(cases) }.joined(separator: ", ") + "]"
        case .scalar(let word):
            return scalarLiteral(word)
        case .list(.scalar(let word)):
            guard scalarLiteral(word) != nil else { return nil }
            let items = (0..<number(0...3)).compactMap { _ in scalarLiteral(word) }
            return "[" + items.joined(separator: ", ") + "]"
        default:
            return nil
        }
    }

    private mutating func scalarLiteral(_ word: String) -> String? {
        switch word {
        case "string":
            return YAMLText.quoted(pick([
                "", "Untitled", "with \"quotes\" and \\ backslash", "multi\nline", "tab\there", "emoji 🎉",
                "right-to-left \u{202E}override", "nul \u{0} byte", "#not a comment", "true", "123",
                "\\(not interpolated)", "\"\"\"", "#\"raw\"#", "é and e\u{301}", String(repeating: "long ", count: 200),
            ]))
        case "int":
            return pick([
                "0", "-1", "42", "9223372036854775807", "-9223372036854775808", "0x1F", "0o17", "-0",
                String(Int64(bitPattern: random.next())),
            ])
        case "double":
            let bits = Double(bitPattern: random.next())
            let drawn = bits.isFinite ? "\(bits)" : "0.5"
            let subnormal = Double(bitPattern: random.next() % (1 << 52))
            return pick([
                "0.5", "-0.0", "0", "3", "1e308", "1.7976931348623157e308", "-1.7976931348623157e308", "4.9e-324",
                "2.2250738585072014e-308", "0.1", "-2.5e-10", "123456789.123456789", "1e15", "1e16",
                "6.02214076e23", drawn, "\(subnormal)",
            ])
        case "bool":
            return pick(["true", "false"])
        case "date":
            return chance(0.15) ? "now" : dateLiteral()
        default:
            return nil
        }
    }

    private mutating func dateLiteral() -> String {
        let year = pick([1, 1969, 1970, 2000, 2024, 9999, number(1...9999)])
        let month = number(1...12)
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        let day = chance(0.2) ? days : number(1...days)
        let date = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        if chance(0.3) { return date }
        var time = "T" + pad(number(0...23), 2) + ":" + pad(number(0...59), 2) + ":" + pad(number(0...59), 2)
        if chance(0.3) { time += "." + String(number(0...999_999)) }
        let zone = chance(0.5) ? "Z" : pick(["+", "-"]) + pad(number(0...14), 2) + ":" + pick(["00", "30", "45"])
        // A date-time holds colons: quoted or plain, YAML reads it as text either way.
        return chance(0.5) ? date + time + zone : YAMLText.quoted(date + time + zone)
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
    }

    // MARK: - Projections and catalogs

    /// A projection copies some of its draft's fields (same name, type and optionality; a
    /// reference points at the projection of the draft's target) and may add its own
    /// server-owned and local-only fields.
    private mutating func drawProjectionFields(of index: Int) {
        guard let draft = models.first(where: { $0.publishAs == models[index].name }) else { return }
        for field in draft.fields where chance(0.6) {
            guard let type = projected(field.type) else { continue }
            var copy = DrawnField(name: field.name, type: type, optional: field.optional)
            // The projection's enum is its own: the same cases, or some of them.
            copy.cases = field.cases.isEmpty || chance(0.7) ? field.cases : Array(field.cases.prefix(1))
            if copy.optional == false && chance(0.5) { copy.optional = nil }
            if field.type.word == "asset" && models[index].hasAsset { continue }
            if chance(0.3) { copy.defaultValue = defaultLiteral(for: type, optional: field.optional == true, cases: copy.cases) }
            if chance(0.1) { copy.index = indexes(for: type) }
            models[index].fields.append(copy)
        }
        for _ in 0..<number(0...2) where chance(0.3) {
            var own = DrawnField(name: drawFieldName(in: models[index]), type: .scalar(pick(["int", "string", "bool", "date"])))
            if chance(0.5) { own.serverOwned = true } else { own.localOnly = true }
            models[index].fields.append(own)
        }
    }

    /// The type a projection's copy of a draft field has, or nil when it has none (a reference
    /// to a model that publishes nowhere).
    private func projected(_ type: DrawnType) -> DrawnType? {
        switch type {
        case .scalar: return type
        case .reference(let target, let onDelete):
            return models.first { $0.name == target }?.publishAs.map { .reference(to: $0, onDelete: onDelete) }
        case .list(let element):
            return projected(element).map { .list(of: $0) }
        }
    }

    private mutating func drawCatalog(of index: Int) {
        var lines: [(key: String, value: String)] = []
        let model = models[index]
        if chance(0.6) {
            let keys = model.fields.filter { $0.type.word != "asset" && $0.localOnly != true }.map(\.name).filter { _ in chance(0.6) }
            lines.append(("desiredKeys", chance(0.4) ? "auto" : "[" + keys.map(YAMLText.key).joined(separator: ", ") + "]"))
        }
        let governed = chance(0.5)
        if governed || chance(0.1) { lines.append(("initialState", pick(["listed", "delisted"]))) }
        if governed || chance(0.2) { lines.append(("governed", governed ? "true" : "false")) }
        models[index].catalog = lines
    }
}

/// Whether CloudKit takes `name` as a record type or field name. The draw asks only to steer
/// (a model name CloudKit refuses gets a `recordType`), never to judge.
func isCloudKitName(_ name: String) -> Bool {
    CloudKitNaming.problem(with: name) == nil
}
