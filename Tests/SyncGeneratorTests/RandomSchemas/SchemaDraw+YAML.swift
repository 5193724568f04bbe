/// Writing a drawn schema as YAML files, in the styles people use: block and flow mappings,
/// the `name: type` shorthand, quoted and plain keys, anchors under `x-` keys with aliases.
extension SchemaDraw {
    mutating func render() -> [String: String] {
        var files: [String: String] = [:]
        for file in 0..<fileCount {
            files["Schema\(file).yaml"] = renderFile(file)
        }
        return files
    }

    private mutating func renderFile(_ file: Int) -> String {
        var lines: [String] = []
        if chance(0.3) { lines.append("# A random schema.") }
        switch textFaults[file] {
        case .version(let value): lines.append("version: \(value)")
        default: if chance(0.3) { lines.append("version: 1") }
        }
        // Anchors come first, so every alias below finds its anchor defined.
        var anchors: [String] = []
        var body: [String] = []
        let fileModels = models.filter { $0.file == file }
        if fileModels.isEmpty {
            // A text fault adds a model below: `models: {}` would make it a syntax error.
            body.append(chance(0.5) && textFaults[file] == nil ? "models: {}" : "models:")
        } else {
            body.append("models:")
            for model in fileModels {
                body += renderModel(model, anchors: &anchors)
            }
        }
        lines += anchors + body
        switch textFaults[file] {
        case .unclosedFlow:
            lines.append("  Broken:\n    fields: { title: string")
        case .tag:
            lines.append("  Tagged:\n    fields:\n      title: !!str string")
        case .mergeKey:
            lines.insert("x-base: &base { type: string }", at: 0)
            lines.append("  Merged:\n    fields:\n      title:\n        <<: *base\n        optional: true")
        case .overlongKey(let length):
            lines.append("  " + String(repeating: "K", count: length) + ":\n    fields: {}")
        default:
            break
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private mutating func renderModel(_ model: DrawnModel, anchors: inout [String]) -> [String] {
        var lines = ["  \(YAMLText.key(model.name)):"]
        if let recordType = model.recordType { lines.append("    recordType: \(YAMLText.key(recordType))") }
        if let scopes = model.scopes { lines.append("    scopes: [\(scopes.joined(separator: ", "))]") }
        if let shareable = model.shareable { lines.append("    shareable: \(shareable)") }
        if let parent = model.parent { lines.append("    parent: \(YAMLText.key(parent))") }
        if let publishAs = model.publishAs { lines.append("    publishAs: \(YAMLText.key(publishAs))") }
        if model.unique.count == 1 && chance(0.7) {
            lines.append("    unique: [" + model.unique[0].map(YAMLText.key).joined(separator: ", ") + "]")
        } else if !model.unique.isEmpty {
            lines.append("    unique: [" + model.unique.map { "[" + $0.map(YAMLText.key).joined(separator: ", ") + "]" }.joined(separator: ", ") + "]")
        }
        if let merge = model.merge { lines.append("    merge: \(merge)") }
        if let catalog = model.catalog {
            if chance(0.5) {
                lines.append("    catalog: { " + catalog.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + " }")
            } else {
                lines.append("    catalog:" + (catalog.isEmpty ? " {}" : ""))
                lines += catalog.map { "      \($0.key): \($0.value)" }
            }
        }
        if model.fields.isEmpty {
            lines.append(pick(["    fields: {}", "    fields:"]))
        } else if chance(0.1) && model.fields.allSatisfy({ $0.isShorthand }) {
            lines.append("    fields: { " + model.fields.map { "\(YAMLText.key($0.name)): \($0.type.word)" }.joined(separator: ", ") + " }")
        } else {
            lines.append("    fields:")
            for field in model.fields { lines += renderField(field, anchors: &anchors) }
        }
        return lines
    }

    private mutating func renderField(_ field: DrawnField, anchors: inout [String]) -> [String] {
        let key = "      \(YAMLText.key(field.name)):"
        if field.isShorthand && chance(0.7) { return ["\(key) \(field.type.word)"] }
        let entries = fieldEntries(field)
        if chance(0.25) {
            return [key] + entries.map { "        \($0.key): \($0.value)" }
        }
        let flow = "{ " + entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + " }"
        if chance(0.1) {
            let anchor = "a\(anchors.count)"
            anchors.append("x-\(anchor): &\(anchor) \(flow)")
            return ["\(key) *\(anchor)"]
        }
        return ["\(key) \(flow)"]
    }

    private func fieldEntries(_ field: DrawnField) -> [(key: String, value: String)] {
        var entries: [(key: String, value: String)] = [("type", field.type.word)]
        switch field.type {
        case .reference(let target, let onDelete):
            entries.append(("to", YAMLText.key(target)))
            if let onDelete { entries.append(("onDelete", onDelete)) }
        case .list(let element):
            entries.append(("of", element.word))
            if case .reference(let target, let onDelete) = element {
                entries.append(("to", YAMLText.key(target)))
                if let onDelete { entries.append(("onDelete", onDelete)) }
            }
        case .scalar:
            break
        }
        if !field.cases.isEmpty { entries.append(("cases", "[" + field.cases.joined(separator: ", ") + "]")) }
        if let optional = field.optional { entries.append(("optional", "\(optional)")) }
        if let value = field.defaultValue { entries.append(("default", value)) }
        if let encrypted = field.encrypted { entries.append(("encrypted", "\(encrypted)")) }
        if let localOnly = field.localOnly { entries.append(("localOnly", "\(localOnly)")) }
        if let serverOwned = field.serverOwned { entries.append(("serverOwned", "\(serverOwned)")) }
        if !field.index.isEmpty { entries.append(("index", "[" + field.index.joined(separator: ", ") + "]")) }
        if let merge = field.merge { entries.append(("merge", merge)) }
        return entries + field.extra
    }
}
