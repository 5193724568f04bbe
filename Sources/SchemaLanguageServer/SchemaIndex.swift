import SyncGenerator

/// Where each model and field name of a schema folder is written, declared or used, read from the
/// parsed files (a file with errors still has its names): what definition, references, rename,
/// hover and the outline stand on.
struct SchemaIndex {
    enum Role: Equatable {
        case modelDeclaration
        /// A field's `to`, a model's `parent` or `publishAs`.
        case modelUse
        case fieldDeclaration(model: String)
        /// A `unique` key's or a catalog's `desiredKeys` entry.
        case fieldUse(model: String)
    }

    struct Occurrence {
        var name: String
        var role: Role
        var location: SourceLocation

        var isModel: Bool { role == .modelDeclaration || role == .modelUse }

        /// The model a field occurrence belongs to.
        var model: String? {
            switch role {
            case .fieldDeclaration(let model), .fieldUse(let model): model
            default: nil
            }
        }
    }

    let documents: [SchemaDocument]
    let occurrences: [Occurrence]

    /// `saved`: a file's text as last saved, read for the names of a file that does not load as
    /// it is being typed (a key half written is a YAML error until its colon comes).
    init(_ sources: [SchemaSource], saved: (String) -> String? = { _ in nil }) {
        let loader = YAMLLoader()
        var documents: [SchemaDocument] = []
        for source in sources {
            let loaded = loader.load(source.bytes, file: source.path)
            guard let root = loaded.isComplete ? loaded.root : saved(source.path).flatMap({ loader.load(Array($0.utf8), file: source.path).root }) else { continue }
            documents.append(SchemaParser.parse(root, file: source.path).0)
        }
        var occurrences: [Occurrence] = []
        for model in documents.flatMap(\.models) {
            let name = model.name.value
            occurrences.append(Occurrence(name: name, role: .modelDeclaration, location: model.name.location))
            for use in [model.parent, model.publishAs].compactMap({ $0 }) {
                occurrences.append(Occurrence(name: use.value, role: .modelUse, location: use.location))
            }
            for field in model.fields {
                occurrences.append(Occurrence(name: field.name.value, role: .fieldDeclaration(model: name), location: field.name.location))
                if let target = field.to {
                    occurrences.append(Occurrence(name: target.value, role: .modelUse, location: target.location))
                }
            }
            for key in model.unique {
                for field in key.value {
                    occurrences.append(Occurrence(name: field.value, role: .fieldUse(model: name), location: field.location))
                }
            }
            if case .explicit(let keys) = model.catalog?.desiredKeys {
                for field in keys {
                    occurrences.append(Occurrence(name: field.value, role: .fieldUse(model: name), location: field.location))
                }
            }
        }
        self.documents = documents
        self.occurrences = occurrences
    }

    var models: [ModelDeclaration] { documents.flatMap(\.models) }

    func model(named name: String) -> ModelDeclaration? {
        models.first { $0.name.value == name }
    }

    /// The name written at a place (1-based line and column), quotes around it included.
    func occurrence(inFile path: String, line: Int, column: Int, lines: TextLines) -> Occurrence? {
        occurrences.first { occurrence in
            guard occurrence.location.file == path, occurrence.location.line == line else { return false }
            let span = Self.span(of: occurrence, in: lines)
            return span.start <= column && column <= span.end
        }
    }

    /// Every occurrence of the same name: the model, or the field of the same model (and of the
    /// projection it publishes as, or the draft it is published from, whose fields mirror it).
    func related(to occurrence: Occurrence) -> [Occurrence] {
        if occurrence.isModel {
            return occurrences.filter { $0.isModel && $0.name == occurrence.name }
        }
        guard let model = occurrence.model else { return [] }
        let mirrored = Set(mirrors(of: model) + [model])
        return occurrences.filter { other in
            guard let otherModel = other.model else { return false }
            return other.name == occurrence.name && mirrored.contains(otherModel)
        }
    }

    /// The projection a draft publishes as, and the drafts published as a projection.
    private func mirrors(of model: String) -> [String] {
        var names: [String] = []
        if let projection = self.model(named: model)?.publishAs?.value { names.append(projection) }
        names += models.filter { $0.publishAs?.value == model }.map(\.name.value)
        return names
    }

    /// The 1-based columns the name spans, first to one past its last scalar; a quoted name's
    /// location is its opening quote.
    static func span(of occurrence: Occurrence, in lines: TextLines) -> (start: Int, end: Int) {
        let column = occurrence.location.column
        let text = lines.line(occurrence.location.line - 1)
        let first = text.dropFirst(column - 1).first
        let quoted = first == "\"" || first == "'"
        let start = quoted ? column + 1 : column
        return (start, start + occurrence.name.unicodeScalars.count)
    }

    /// The protocol's range of the name itself (quotes excluded).
    static func range(of occurrence: Occurrence, in lines: TextLines) -> Range {
        let span = span(of: occurrence, in: lines)
        return Range(start: lines.position(line: occurrence.location.line, column: span.start), end: lines.position(line: occurrence.location.line, column: span.end))
    }
}
