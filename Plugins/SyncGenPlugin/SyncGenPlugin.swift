import Foundation
import PackagePlugin

/// Generates the synced models of a target from the `*.yaml` / `*.yml` schema files in it, at
/// build time, with `syncgen generate`. Output names follow from the schema paths alone
/// (`GeneratedFileNaming`), so SwiftPM knows them before the tool runs; the tool is an input too,
/// so a rebuilt syncgen regenerates. Schema errors fail the build at file:line:column.
@main
struct SyncGenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        return try SchemaCommand.commands(
            schemas: target.sourceFiles.map(\.url), targetName: target.name, targetDirectory: target.directoryURL,
            tool: try context.tool(named: "syncgen").url, workDirectory: context.pluginWorkDirectoryURL)
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension SyncGenPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        try SchemaCommand.commands(
            schemas: target.inputFiles.map(\.url), targetName: target.displayName,
            targetDirectory: context.xcodeProject.directoryURL,
            tool: try context.tool(named: "syncgen").url, workDirectory: context.pluginWorkDirectoryURL)
    }
}
#endif

/// The one `syncgen generate` command for a target's schema files.
enum SchemaCommand {
    static func commands(schemas candidates: [URL], targetName: String, targetDirectory: URL, tool: URL, workDirectory: URL) throws -> [Command] {
        let schemas = candidates.filter { ["yaml", "yml"].contains($0.pathExtension.lowercased()) }.sorted { filePath($0) < filePath($1) }
        guard !schemas.isEmpty else { return [] }
        let root = filePath(targetDirectory)
        let relativePaths = schemas.map { schema -> String in
            let path = filePath(schema)
            return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : schema.lastPathComponent
        }
        let output = workDirectory.appendingPathComponent("GeneratedSources")
        let names: [String]
        switch GeneratedFileNaming.outputNames(forSchemasAt: relativePaths) {
        case .success(let success): names = success
        case .failure(let clash): throw PluginError(message: "\(targetName): \(clash.description)")
        }
        return [
            .buildCommand(
                displayName: "Generating sync models for \(targetName) from \(schemas.count) schema file\(schemas.count == 1 ? "" : "s")",
                executable: tool,
                arguments: ["generate", "--output", filePath(output), "--relative-to", root] + schemas.map(filePath),
                inputFiles: schemas + [tool],
                outputFiles: names.map { output.appendingPathComponent($0) })
        ]
    }

    /// A URL's path as the file system spells it, without a trailing slash. On Darwin
    /// `URL.path()` percent-encodes spaces and other characters; the tool needs the plain path.
    static func filePath(_ url: URL) -> String {
        let path = url.path(percentEncoded: false)
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }
}

struct PluginError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
