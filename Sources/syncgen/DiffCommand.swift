import SyncGenerator

/// `syncgen diff`: what a new schema changes in the deployed one. Exit status 0 when nothing
/// breaks, 1 when something does (or either schema has errors), 2 usage error.
enum DiffCommand {
    static func run(_ options: DiffOptions, output: inout some TerminalOutput) throws(UsageError) -> Int32 {
        let new = try SchemaFiles.load(options.paths).map(\.source)
        let check = BaselineCheck(baseline: try options.baseline.load(newPaths: options.paths), new: new)
        switch options.format {
        case .json:
            output.write(BaselineCheckJSONRenderer.render(check), to: .standardOutput)
        case .text:
            output.write(DiagnosticTextRenderer.render(check.diagnostics), to: .standardError)
            output.write(check.safeChanges.map { "\($0)\n" }.joined(), to: .standardOutput)
            output.write("syncgen: \(summary(check, baseline: options.baseline))\n", to: .standardError)
        }
        return check.diagnostics.hasErrors ? 1 : 0
    }

    /// "baseline 'main': 1 breaking change, 3 safe changes"
    static func summary(_ check: BaselineCheck, baseline: Baseline) -> String {
        let head = "baseline '\(baseline.name)'"
        if check.baseline.fileCount == 0 {
            return "\(head) has no schema files there: every model is new (\(counted(check.safeChanges.count, "safe change")))"
        }
        guard check.diff != nil else {
            let which = check.new.schema == nil ? "the new schema" : "the baseline"
            return "\(head): \(which) has errors; nothing compared"
        }
        return "\(head): \(counted(check.breakingChangeCount, "breaking change")), \(counted(check.safeChanges.count, "safe change"))"
    }
}
