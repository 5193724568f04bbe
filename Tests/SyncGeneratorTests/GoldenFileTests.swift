import Foundation
import Testing
import SyncGenerator

/// Generated code is checked in where a target compiles and exercises it:
/// - Examples/Notes/Sources/NotesDemo/Schema -> Tests/SyncRuntimeTests/Generated (internal access, the runtime tests' models);
/// - Tests/GeneratedCoverage/Schema -> Tests/GeneratedCoverage/Generated (public access, a module of
///   its own because its models are named `Data`, `Date` and `Task`).
/// The benchmark's models come from the build plugin, as an app's do.
/// Regenerate with `SYNCGEN_UPDATE_GOLDENS=1 swift test --filter GoldenFileTests`, then review the
/// diff before committing.
@Suite("Golden files: generated code for the example schemas")
struct GoldenFileTests {
    struct Golden: Sendable, CustomTestStringConvertible {
        var schemaFolder: String
        var outputFolder: String
        var access: CodeGenerator.AccessLevel

        var testDescription: String { schemaFolder }
    }

    static let goldens = [
        Golden(schemaFolder: "Examples/Notes/Sources/NotesDemo/Schema", outputFolder: "Tests/SyncRuntimeTests/Generated", access: .internal),
        Golden(schemaFolder: "Tests/GeneratedCoverage/Schema", outputFolder: "Tests/GeneratedCoverage/Generated", access: .public),
    ]

    static func generate(_ golden: Golden) throws -> [GeneratedFile] {
        let sources = try schemaSources(golden.schemaFolder)
        let files = sources.map { CodeGenerator.SchemaFile(path: $0.path, relativePath: URL(fileURLWithPath: $0.path).lastPathComponent) }
        let result = SchemaPipeline().validate(sources)
        let schema = try #require(result.schema, "\(result.rendered)")
        return try CodeGenerator(accessLevel: golden.access).generate(schema, files: files)
    }

    @Test(arguments: goldens)
    func goldenFilesAreUpToDate(_ golden: Golden) throws {
        let generated = try Self.generate(golden)
        let folder = repositoryRoot.appendingPathComponent(golden.outputFolder)
        if ProcessInfo.processInfo.environment["SYNCGEN_UPDATE_GOLDENS"] == "1" {
            for file in generated {
                try Data(file.contents.utf8).write(to: folder.appendingPathComponent(file.name))
            }
        }
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(onDisk == generated.map(\.name).sorted())
        for file in generated {
            let text = try String(contentsOf: folder.appendingPathComponent(file.name), encoding: .utf8)
            #expect(text == file.contents, "\(golden.outputFolder)/\(file.name) is stale: run SYNCGEN_UPDATE_GOLDENS=1 swift test --filter GoldenFileTests and review the diff")
        }
    }
}
