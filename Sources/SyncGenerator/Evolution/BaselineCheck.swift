import SyncCore
/// A new schema checked against a baseline (the deployed one): both validated, then compared when
/// both are valid. Pure, like the pipeline: sources in, diagnostics and changes out.
package struct BaselineCheck: Sendable {
    /// The new schema's validation.
    package var new: SchemaPipeline.Result
    /// The baseline's validation.
    package var baseline: SchemaPipeline.Result
    /// The comparison; nil when either schema has errors, so there is nothing sound to compare.
    package var diff: SchemaDiff.Result?

    package init(baseline: [SchemaSource], new: [SchemaSource], pipeline: SchemaPipeline = SchemaPipeline()) {
        self.new = pipeline.validate(new)
        self.baseline = pipeline.validate(baseline)
        if let old = self.baseline.schema, let current = self.new.schema {
            diff = SchemaDiff.compare(baseline: old, with: current)
        }
    }

    /// The new schema's diagnostics, the baseline's errors (its warnings are history nobody can
    /// act on) and the breaking changes, in reading order.
    package var diagnostics: [Diagnostic] {
        let baselineErrors = baseline.diagnostics.filter { $0.severity == .error }
        return (new.diagnostics + baselineErrors + (diff?.diagnostics ?? [])).sortedForOutput()
    }

    package var safeChanges: [SchemaDiff.SafeChange] { diff?.safeChanges ?? [] }

    /// Breaking changes found (errors of the comparison only).
    package var breakingChangeCount: Int {
        diff?.diagnostics.filter { $0.severity == .error }.count ?? 0
    }
}

/// Prints a baseline check as one JSON object: `diagnostics` (as `syncgen validate --format json`
/// prints them) and `safeChanges` (`{file, line, column, message}`).
package enum BaselineCheckJSONRenderer {
    package static func render(_ check: BaselineCheck) -> String {
        let safe = check.safeChanges.map { change in
            "{\"file\": \(QuotedText.json(change.location.file)), \"line\": \(change.location.line), "
                + "\"column\": \(change.location.column), \"message\": \(QuotedText.json(change.message))}"
        }
        return "{\n  \"diagnostics\": \(DiagnosticJSONRenderer.array(DiagnosticJSONRenderer.objects(check.diagnostics), indent: "  ")),\n"
            + "  \"safeChanges\": \(DiagnosticJSONRenderer.array(safe, indent: "  "))\n}\n"
    }
}
