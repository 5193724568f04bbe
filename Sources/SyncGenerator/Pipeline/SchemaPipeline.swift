/// The generator's front end, as one pure function: sources in, diagnostics and (when valid) a
/// resolved ``Schema`` out.
///
///     sources --load--> YAML nodes --parse--> SchemaDocuments --validate--> Schema + [Diagnostic]
///
/// Each stage is also public on its own (``YAMLLoader``, ``SchemaParser``, ``SchemaValidator``) for tests
/// and tools that need one stage alone.
package struct SchemaPipeline: Sendable {
    package struct Result: Sendable {
        /// The resolved schema; nil when any diagnostic is an error.
        package var schema: Schema?
        /// Every problem found, sorted by file, line and column.
        package var diagnostics: [Diagnostic]
        package var fileCount: Int
        /// Models declared across all files (duplicates included).
        package var modelCount: Int
    }

    package var yamlLimits: YAMLLoader.Limits

    package init(yamlLimits: YAMLLoader.Limits = .init()) {
        self.yamlLimits = yamlLimits
    }

    /// `besides`: schema files next to the given ones that the run does not check, read only to
    /// say where a model the given files leave unresolved is declared.
    package func validate(_ sources: [SchemaSource], besides: [SchemaSource] = []) -> Result {
        validate(sources, readingBesides: { besides })
    }

    /// `readingBesides` gives the schema files next to the given ones, which the run does not
    /// check; it is called only when the given files name a model they do not declare, to say
    /// where it is. A run whose files resolve every name reads nothing else.
    package func validate(_ sources: [SchemaSource], readingBesides: () -> [SchemaSource]) -> Result {
        let loader = YAMLLoader(limits: yamlLimits)
        var diagnostics: [Diagnostic] = []
        var documents: [SchemaDocument] = []
        var someFileUnreadable = false
        for source in sources.sorted(by: { $0.path < $1.path }) {
            let loaded = loader.load(source.bytes, file: source.path)
            diagnostics += loaded.diagnostics
            if !loaded.isComplete {
                someFileUnreadable = true
                continue
            }
            guard let root = loaded.root else {
                if loaded.diagnostics.hasErrors { continue }
                diagnostics.append(Diagnostic(.emptyFile, "the file holds no schema; it contributes no models", at: SourceLocation(file: source.path, line: 1, column: 1)))
                continue
            }
            let (document, parseDiagnostics) = SchemaParser.parse(root, file: source.path)
            diagnostics += parseDiagnostics
            documents.append(document)
        }
        var (schema, validationDiagnostics) = SchemaValidator.validate(documents)
        if !someFileUnreadable, validationDiagnostics.contains(where: { Self.unresolvedNameCodes.contains($0.code) }) {
            // Only now are the files beside worth reading: to say where the unknown names live.
            let besideDocuments = readingBesides().compactMap { source -> SchemaDocument? in
                loader.load(source.bytes, file: source.path).root.map { SchemaParser.parse($0, file: source.path).0 }
            }
            if !besideDocuments.isEmpty {
                (schema, validationDiagnostics) = SchemaValidator.validate(documents, besides: besideDocuments)
            }
        }
        if someFileUnreadable {
            // A model that seems unknown may well be declared in the file that could not be read:
            // say nothing about it rather than send the user after a phantom.
            validationDiagnostics.removeAll { Self.unresolvedNameCodes.contains($0.code) }
            schema = nil
        }
        diagnostics += validationDiagnostics
        return Result(
            schema: diagnostics.hasErrors ? nil : schema,
            diagnostics: diagnostics.sortedForOutput(),
            fileCount: sources.count,
            modelCount: documents.reduce(0) { $0 + $1.models.count })
    }

    /// Codes that report a model name the schema does not declare.
    static let unresolvedNameCodes: Set<DiagnosticCode> = [.unknownReferenceTarget, .unknownParent, .unknownProjection]
}
