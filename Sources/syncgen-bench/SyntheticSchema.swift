import SyncGenerator

/// Writes valid schemas of any size that use every construct of the language, for benchmarks.
enum SyntheticSchema {
    /// `modelCount` models of `fieldsPerModel` fields each, in files of at most `modelsPerFile`
    /// models (nil: all in one file). Every tenth model is a shareable root whose neighbour is its
    /// child; every fifth pair is a draft with a public projection.
    static func sources(modelCount: Int, fieldsPerModel: Int = 20, modelsPerFile: Int? = nil) -> [SchemaSource] {
        let perFile = modelsPerFile ?? modelCount
        var sources: [SchemaSource] = []
        var text = ""
        for index in 0..<modelCount {
            text += model(index, of: modelCount, fields: fieldsPerModel)
            if (index + 1) % perFile == 0 || index == modelCount - 1 {
                sources.append(SchemaSource(path: "Schema/Part\(sources.count).yaml", text: "version: 1\nmodels:\n" + text))
                text = ""
            }
        }
        return sources
    }

    private static func model(_ index: Int, of count: Int, fields: Int) -> String {
        let role = index % 10
        var lines = ["  Model\(index):"]
        var fieldLines: [String] = []
        switch role {
        case 0:
            lines += ["    scopes: [private, shared]", "    shareable: true"]
        case 1:
            lines += ["    scopes: [private, shared]", "    parent: Model\(index - 1)"]
            fieldLines.append("      owner: { type: reference, to: Model\(index - 1), onDelete: deleteSelf }")
        case 2 where index + 1 < count:
            lines.append("    publishAs: Model\(index + 1)")
        case 3:
            lines += ["    scopes: [public]", "    catalog: { desiredKeys: auto, initialState: delisted, governed: true }"]
        default:
            break
        }
        lines.append("    fields:")
        // Public projections mirror their draft's fields, so both use the same field list.
        let projectionPair = role == 2 || role == 3
        while fieldLines.count < fields {
            let n = fieldLines.count
            switch n % 8 {
            case 0: fieldLines.append("      title\(n): string")
            case 1: fieldLines.append("      count\(n): { type: int, default: \(n) }")
            case 2: fieldLines.append("      score\(n): { type: double, optional: true }")
            case 3: fieldLines.append("      done\(n): { type: bool, default: false, index: [queryable] }")
            case 4: fieldLines.append("      at\(n): { type: date, default: now }")
            case 5: fieldLines.append("      tags\(n): { type: list, of: string, index: [searchable] }")
            case 6: fieldLines.append(projectionPair ? "      note\(n): { type: string, default: \"\" }" : "      secret\(n): { type: string, encrypted: true }")
            default: fieldLines.append(projectionPair ? "      place\(n): { type: location, optional: true }" : "      draft\(n): { type: string, localOnly: true }")
            }
        }
        return (lines + fieldLines).joined(separator: "\n") + "\n"
    }

    // MARK: - Shapes that once cost the square of their size

    /// One model of `fieldCount` fields, each line padded by a comment to about 200 bytes: a
    /// 20 MB file at 100,000 fields.
    static func wideModel(fieldCount: Int) -> SchemaSource {
        var text = "version: 1\nmodels:\n  Wide:\n    fields:\n"
        let padding = String(repeating: "-", count: 150)
        for index in 0..<fieldCount {
            text += "      field\(index): { type: string, optional: true }  # \(padding)\n"
        }
        return SchemaSource(path: "Schema/Wide.yaml", text: text)
    }

    /// A public model whose catalog lists every one of its `count` fields as a desired key: one
    /// list of `count` items.
    static func longList(count: Int) -> SchemaSource {
        var text = "version: 1\nmodels:\n  Listing:\n    scopes: [public]\n    catalog:\n      desiredKeys: [\(( 0..<count).map { "k\($0)" }.joined(separator: ", "))]\n    fields:\n"
        for index in 0..<count { text += "      k\(index): string\n" }
        return SchemaSource(path: "Schema/Listing.yaml", text: text)
    }

    /// `count` top-level `x-` keys (the place for anchors), then one small model.
    static func manyExtensionKeys(count: Int) -> SchemaSource {
        var text = "version: 1\n"
        for index in 0..<count { text += "x-anchor\(index): { type: string }\n" }
        text += "models:\n  Small:\n    fields:\n      title: string\n"
        return SchemaSource(path: "Schema/Anchors.yaml", text: text)
    }
}
