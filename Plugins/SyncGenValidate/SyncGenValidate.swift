import Foundation
import PackagePlugin

/// `swift package syncgen-validate`: validates the schema files of every target (or of the
/// targets named with `--target`), printing every problem at file:line:column.
@main
struct SyncGenValidate: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let names = Set(extractor.extractOption(named: "target"))
        let tool = try context.tool(named: "syncgen").url
        var failed = false
        var validated = 0
        for target in context.package.targets {
            guard let target = target as? SourceModuleTarget, names.isEmpty || names.contains(target.name) else { continue }
            let schemas = target.sourceFiles.map(\.url).filter { ["yaml", "yml"].contains($0.pathExtension.lowercased()) }
            guard !schemas.isEmpty else { continue }
            validated += 1
            let process = Process()
            process.executableURL = tool
            process.arguments = ["validate"] + extractor.remainingArguments + schemas.map { $0.path(percentEncoded: false) }.sorted()
            try process.run()
            process.waitUntilExit()
            if process.terminationStatus != 0 {
                failed = true
                Diagnostics.error("the schema of target '\(target.name)' is invalid")
            }
        }
        if validated == 0 {
            Diagnostics.warning("no target has schema files (*.yaml, *.yml)")
        }
        if failed { throw PluginError(message: "schema validation failed") }
    }
}

struct PluginError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
