import SyncGenerator

/// `syncgen validate`: reports every problem of a schema, and with a baseline every change that
/// would break the deployed schema; exit status 0 valid, 1 errors.
enum ValidateCommand {
    static func run(_ options: ValidateOptions, output: inout some TerminalOutput) throws(UsageError) -> Int32 {
        let sources = try SchemaFiles.load(options.paths).map(\.source)
        var result = SchemaPipeline().validate(sources, readingBesides: { SchemaFiles.besides(sources.map(\.path), named: options.paths) })
        var baselineSummary = ""
        if let baseline = options.baseline {
            let check = BaselineCheck(baseline: try baseline.load(newPaths: options.paths), new: sources)
            result.diagnostics = check.diagnostics
            baselineSummary = "; " + DiffCommand.summary(check, baseline: baseline)
        }
        if options.warningsAsErrors {
            result.diagnostics = result.diagnostics.map { diagnostic in
                var promoted = diagnostic
                if promoted.severity == .warning { promoted.severity = .error }
                return promoted
            }
        }
        switch options.format {
        case .json:
            output.write(DiagnosticJSONRenderer.render(result.diagnostics), to: .standardOutput)
        case .text:
            output.write(DiagnosticTextRenderer.render(result.diagnostics), to: .standardError)
            output.write(summary(result) + baselineSummary + "\n", to: .standardError)
        }
        return result.diagnostics.hasErrors ? 1 : 0
    }

    /// "syncgen: valid: 3 files, 12 models: 2 errors, 1 warning" (", 2 notes" when there are any)
    static func summary(_ result: SchemaPipeline.Result) -> String {
        let errors = result.diagnostics.filter { $0.severity == .error }.count
        let warnings = result.diagnostics.filter { $0.severity == .warning }.count
        let notes = result.diagnostics.filter { $0.severity == .note }.count
        let verdict = errors == 0 ? "valid" : "invalid"
        return "syncgen: \(verdict): \(counted(result.fileCount, "file")), \(counted(result.modelCount, "model")): \(counted(errors, "error")), \(counted(warnings, "warning"))"
            + (notes > 0 ? ", \(counted(notes, "note"))" : "")
    }
}
