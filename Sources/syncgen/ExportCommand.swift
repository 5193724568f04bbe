import SyncGenerator

/// `syncgen export`: the schema in another language, on standard output. `ckdb`, the diagrams
/// (`mermaid`, `dot`) and the `reference` need a valid schema (exit status 1 and nothing printed otherwise);
/// `json-schema` describes the language itself and reads no files.
enum ExportCommand {
    static func run(_ options: ExportOptions, output: inout some TerminalOutput) throws(UsageError) -> Int32 {
        switch options.format {
        case .jsonSchema:
            output.write(JSONSchemaExport.schemaLanguage(), to: .standardOutput)
            return 0
        case .ckdb, .mermaid, .dot, .reference:
            let result = SchemaPipeline().validate(try SchemaFiles.load(options.paths).map(\.source))
            output.write(DiagnosticTextRenderer.render(result.diagnostics), to: .standardError)
            guard let schema = result.schema else {
                output.write(ValidateCommand.summary(result) + "; nothing exported\n", to: .standardError)
                return 1
            }
            let text = switch options.format {
            case .mermaid: SchemaDiagramExport.render(schema, as: .mermaid)
            case .dot: SchemaDiagramExport.render(schema, as: .dot)
            case .reference: SchemaReferenceExport.markdown(schema)
            default: CloudKitSchemaExport.ckdb(schema)
            }
            output.write(text, to: .standardOutput)
            return 0
        }
    }
}
