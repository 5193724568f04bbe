/// A schema as a diagram, for people: Mermaid (which GitHub and most editors render in Markdown)
/// or Graphviz's DOT. The databases are groups (private; private and shared; public), each model a
/// node with its fields and types (optional ones marked `?`; encrypted, local-only and
/// server-owned fields, merges, share roots, catalogs and natural keys said so), and the edges are
/// the share hierarchy (from each parent down to its children), references (dashed, with their
/// delete action) and publications (bold, from draft to projection).
///
/// Both are built from one description (``SchemaDiagram``), sorted by name: the same schema gives
/// the same bytes whatever the order of its files. Names are never used raw as node identifiers
/// (a model may be called `end`, which Mermaid reads as a keyword): nodes are `m_<name>`, and
/// every label is quoted.
package enum SchemaDiagramExport {
    package enum Format: String, CaseIterable, Sendable {
        case mermaid, dot
    }

    package static func render(_ schema: Schema, as format: Format) -> String {
        let diagram = SchemaDiagram(schema)
        return switch format {
        case .mermaid: mermaid(diagram)
        case .dot: dot(diagram)
        }
    }

    // MARK: - Mermaid

    private static func mermaid(_ diagram: SchemaDiagram) -> String {
        var lines = ["flowchart LR"]
        for group in diagram.groups {
            lines.append("    subgraph \(group.id)[\"\(mermaidText(group.title))\"]")
            for node in group.nodes {
                let body = ([["<b>\(mermaidText(node.title))</b>"] + node.notes.map { "<i>\(mermaidText($0))</i>" }] + [node.fields.map(mermaidText)])
                    .filter { !$0.isEmpty }.map { $0.joined(separator: "<br/>") }.joined(separator: "<br/>───<br/>")
                lines.append("        \(node.id)[\"\(body)\"]")
            }
            lines.append("    end")
        }
        for edge in diagram.edges {
            let arrow = switch edge.kind {
            case .parent: "-->"
            case .reference: "-.->"
            case .publication: "==>"
            }
            lines.append("    \(edge.from) \(arrow)|\"\(mermaidText(edge.label))\"| \(edge.to)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text inside a quoted Mermaid label: its quotes and markup characters as entities.
    private static func mermaidText(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\"": result += "#quot;"
            case "<": result += "#lt;"
            case ">": result += "#gt;"
            case "#": result += "#35;"
            default: result.append(character)
            }
        }
        return result
    }

    // MARK: - DOT

    private static func dot(_ diagram: SchemaDiagram) -> String {
        var lines = [
            "digraph Schema {", "    rankdir=LR;", "    fontname=\"Helvetica\";", "    node [shape=box, fontname=\"Helvetica\", fontsize=11];",
            "    edge [fontname=\"Helvetica\", fontsize=10];",
        ]
        for group in diagram.groups {
            lines.append("    subgraph \"cluster_\(group.id)\" {")
            lines.append("        label=\(dotText(group.title));")
            for node in group.nodes {
                // `\l` ends a left-justified line in a label.
                let text = ([node.title] + node.notes + (node.fields.isEmpty ? [] : [""] + node.fields)).map(dotEscaped).joined(separator: "\\l") + "\\l"
                lines.append("        \(dotText(node.id)) [label=\"\(text)\"];")
            }
            lines.append("    }")
        }
        for edge in diagram.edges {
            let style = switch edge.kind {
            case .parent: ""
            case .reference: ", style=dashed"
            case .publication: ", style=bold"
            }
            lines.append("    \(dotText(edge.from)) -> \(dotText(edge.to)) [label=\(dotText(edge.label))\(style)];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func dotText(_ text: String) -> String {
        "\"" + dotEscaped(text) + "\""
    }

    private static func dotEscaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if character == "\\" || character == "\"" { result.append("\\") }
            result.append(character)
        }
        return result
    }
}

/// What both diagrams draw, in order.
struct SchemaDiagram {
    struct Node {
        var id: String
        var title: String
        var notes: [String]
        var fields: [String]
    }

    struct Group {
        var id: String
        var title: String
        var nodes: [Node]
    }

    struct Edge: Comparable {
        enum Kind: Int, Comparable {
            case parent, reference, publication

            static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
        }

        var kind: Kind
        var from: String
        var to: String
        var label: String

        static func < (lhs: Edge, rhs: Edge) -> Bool {
            (lhs.kind, lhs.from, lhs.to, lhs.label) < (rhs.kind, rhs.from, rhs.to, rhs.label)
        }
    }

    var groups: [Group] = []
    var edges: [Edge] = []

    init(_ schema: Schema) {
        let models = schema.models.sorted { $0.name < $1.name }
        let sets: [(ScopeSet, String, String)] = [
            (.privateOnly, "private", "private database"),
            (.privateAndShared, "privateAndShared", "private and shared databases"),
            (.publicOnly, "public", "public database"),
        ]
        for (scopes, id, title) in sets {
            let members = models.filter { $0.scopes == scopes }
            if !members.isEmpty { groups.append(Group(id: id, title: title, nodes: members.map(Self.node))) }
        }
        for model in models {
            if let parent = model.parent {
                edges.append(Edge(kind: .parent, from: Self.id(parent), to: Self.id(model.name), label: "parent of"))
            }
            if let projection = model.publishAs {
                edges.append(Edge(kind: .publication, from: Self.id(model.name), to: Self.id(projection), label: "publishes as"))
            }
            for field in model.fields {
                guard case let (target?, action?) = (field.type.referenceTarget, Self.deleteAction(field.type)) else { continue }
                edges.append(Edge(kind: .reference, from: Self.id(model.name), to: Self.id(target), label: "\(field.name) (\(action.rawValue))"))
            }
        }
        edges.sort()
    }

    static func id(_ model: String) -> String { "m_" + model }

    private static func node(_ model: Model) -> Node {
        // The schema's words first: the first line of the model's description.
        var notes = model.documentation.flatMap { $0.split(separator: "\n").first.map(String.init) }.map { [$0] } ?? []
        if model.recordType != model.name { notes.append("record type \(model.recordType)") }
        if let zone = model.zone { notes.append("zone \(zone)") }
        if model.isShareable { notes.append("share root") }
        if let catalog = model.catalog {
            notes.append(catalog.isGoverned ? "catalog, governed (starts \(catalog.initialState.rawValue))" : "catalog")
        }
        for key in model.uniqueKeys { notes.append("unique: " + key.joined(separator: " + ")) }
        if let policy = model.mergePolicy { notes.append("merge: \(policy.rawValue)") }
        return Node(id: id(model.name), title: model.name, notes: notes, fields: model.fields.map(field))
    }

    private static func field(_ field: Field) -> String {
        var text = "\(field.name): \(typeText(field.type))\(field.enumeration.map { " [" + $0.cases.joined(separator: ", ") + "]" } ?? "")\(field.isOptional ? "?" : "")"
        var marks: [String] = []
        if field.recordKey != field.name { marks.append("record key \(field.recordKey)") }
        if field.isEncrypted { marks.append("encrypted") }
        if field.isLocalOnly { marks.append("local-only") }
        if field.isServerOwned { marks.append("server-owned") }
        if field.deprecation != nil { marks.append("deprecated") }
        if let merge = field.mergePolicy { marks.append("merge: \(merge.rawValue)") }
        if !marks.isEmpty { text += " (" + marks.joined(separator: ", ") + ")" }
        return text
    }

    private static func typeText(_ type: FieldType) -> String {
        switch type {
        case .reference(let target, _): "reference to \(target)"
        case .list(let element): "list of \(typeText(element))"
        default: type.kind.rawValue
        }
    }

    private static func deleteAction(_ type: FieldType) -> DeleteActionName? {
        switch type {
        case .reference(_, let action): action
        case .list(let element): deleteAction(element)
        default: nil
        }
    }
}
