import Foundation
import Testing

@Suite("syncgen generate, as a user runs it")
struct GenerateCommandTests {
    private let schema = "models:\n  Note:\n    fields: { title: string }\n"

    private func modificationDate(_ url: URL) throws -> Date {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
    }

    @Test func writesOneFilePerSchemaFileAndTheList() throws {
        let folder = try TemporaryFolder()
        try folder.write("Schema/Notes.yaml", schema)
        try folder.write("Schema/Lists/Items.yml", "models:\n  Item:\n    fields: {}\n")
        let result = try Syncgen.run(["generate", "Schema", "--output", "Gen"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("Gen").path).sorted()
        #expect(names == ["Lists+Items.syncgen.swift", "Notes.syncgen.swift", "SyncSchema.syncgen.swift"])
        #expect(result.standardError == "syncgen: generated 3 files in 'Gen' (3 changed)\n")
    }

    @Test func invalidSchemaWritesNothing() throws {
        let folder = try TemporaryFolder()
        try folder.write("Schema/Notes.yaml", "models:\n  Note:\n    fields: { title: strng }\n")
        let result = try Syncgen.run(["generate", "Schema", "--output", "Gen"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("Schema/Notes.yaml:3:22: error: unknown type 'strng'"))
        #expect(result.standardError.hasSuffix("; nothing generated\n"))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Gen").path))
    }

    /// A schema touched but unchanged leaves every output as it was, its modification time too:
    /// the compiler sees nothing new and recompiles nothing. An edited schema changes its own
    /// file's output alone. (The outputs are dated after the generator was built: see the next
    /// test.) Breaking it (marking every unchanged output fresh, as an earlier version did) fails
    /// the date expectations.
    @Test func unchangedOutputsKeepTheirBytesAndTheirDate() throws {
        let folder = try TemporaryFolder()
        try folder.write("Schema/Notes.yaml", schema)
        try folder.write("Schema/Tags.yaml", "models:\n  Tag:\n    fields: { name: string }\n")
        _ = try Syncgen.run(["generate", "Schema", "--output", "Gen"], in: folder.url)
        let later = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3_600).rounded())  // newer than the generator, whenever it was built
        let outputs = ["Notes", "Tags", "SyncSchema"].map { folder.url.appendingPathComponent("Gen/\($0).syncgen.swift") }
        let contents = try outputs.map { try Data(contentsOf: $0) }
        for file in outputs { try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: file.path) }
        try folder.write("Schema/Notes.yaml", schema)  // touched, unchanged
        let again = try Syncgen.run(["generate", "Schema", "--output", "Gen"], in: folder.url)
        #expect(again.standardError == "syncgen: generated 3 files in 'Gen' (0 changed)\n")
        #expect(try outputs.map { try Data(contentsOf: $0) } == contents)
        #expect(try outputs.map(modificationDate) == [later, later, later])
        try folder.write("Schema/Tags.yaml", "models:\n  Tag:\n    fields: { name: string, color: string }\n")
        let edited = try Syncgen.run(["generate", "Schema", "--output", "Gen"], in: folder.url)
        #expect(edited.standardError == "syncgen: generated 3 files in 'Gen' (1 changed)\n")
        #expect(try modificationDate(outputs[0]) == later && modificationDate(outputs[2]) == later)
        #expect(try modificationDate(outputs[1]) < later)
    }

    /// An unchanged output older than the generator is marked fresh: a rebuilt generator comes
    /// with a rebuilt runtime, and a conformance compiled against the old one must be compiled
    /// again (a requirement added to `SyncModel` once left a stale witness table and a crash).
    /// Breaking it (never marking unchanged outputs) leaves the old date.
    @Test func unchangedOutputsOlderThanTheGeneratorAreMarkedFresh() throws {
        let folder = try TemporaryFolder()
        try folder.write("Schema/Notes.yaml", schema)
        _ = try Syncgen.run(["generate", "Schema", "--output", "Gen"], in: folder.url)
        let file = folder.url.appendingPathComponent("Gen/Notes.syncgen.swift")
        let contents = try Data(contentsOf: file)
        let past = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: file.path)
        let again = try Syncgen.run(["generate", "Schema", "--output", "Gen"], in: folder.url)
        #expect(again.standardError == "syncgen: generated 2 files in 'Gen' (0 changed)\n")
        #expect(try Data(contentsOf: file) == contents)
        #expect(try modificationDate(file) > past)
    }

    @Test func generatedFilesOfRemovedSchemasAreRemovedButNothingElse() throws {
        let folder = try TemporaryFolder()
        try folder.write("Schema/Notes.yaml", schema)
        try folder.write("Schema/Old.yaml", "models:\n  Old:\n    fields: {}\n")
        _ = try Syncgen.run(["generate", "Schema", "--output", "Gen"], in: folder.url)
        try folder.write("Gen/Mine.syncgen.swift", "// my own file, not generated\n")
        try folder.write("Gen/Helpers.swift", "// mine too\n")
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Schema/Old.yaml"))
        let result = try Syncgen.run(["generate", "Schema", "--output", "Gen"], in: folder.url)
        #expect(result.status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("Gen").path).sorted()
        #expect(names == ["Helpers.swift", "Mine.syncgen.swift", "Notes.syncgen.swift", "SyncSchema.syncgen.swift"])
    }

    @Test func filesNamedDirectlyKeepTheirPathBelowRelativeTo() throws {
        let folder = try TemporaryFolder()
        try folder.write("Target/Schema/Notes.yaml", schema)
        let result = try Syncgen.run(["generate", "--relative-to", "Target", "--output", "Gen", "Target/Schema/Notes.yaml"], in: folder.url)
        #expect(result.status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Gen/Schema+Notes.syncgen.swift").path))
    }

    @Test func publicAccess() throws {
        let folder = try TemporaryFolder()
        try folder.write("Notes.yaml", schema)
        _ = try Syncgen.run(["generate", "Notes.yaml", "--output", "Gen", "--access", "public"], in: folder.url)
        let text = try String(contentsOf: folder.url.appendingPathComponent("Gen/Notes.syncgen.swift"), encoding: .utf8)
        #expect(text.contains("public struct Note"))
    }

    @Test(arguments: [
        (["generate", "Schema"], "syncgen: error: 'generate' needs '--output <folder>'\n"),
        (["generate", "Schema", "--output"], "syncgen: error: '--output' needs a value: a folder\n"),
        (["generate", "Schema", "--output", "Gen", "--access", "open"], "syncgen: error: unknown access level 'open'; use internal or public\n"),
        (["generate", "Schema", "--output", "Gen", "--acess", "public"], "syncgen: error: unknown option '--acess' for 'generate'; did you mean '--access'?\n"),
        (["generate", "Clash", "--output", "Gen"], "syncgen: error: schema files 'Notes.yaml' and 'notes.yml' would both generate 'notes.syncgen.swift'; rename one of them\n"),
    ])
    func usageErrorsExitTwo(_ arguments: [String], _ message: String) throws {
        let folder = try TemporaryFolder()
        try folder.write("Schema/Notes.yaml", schema)
        try folder.write("Clash/Notes.yaml", schema)
        try folder.write("Clash/notes.yml", "models:\n  Other:\n    fields: {}\n")
        let result = try Syncgen.run(arguments, in: folder.url)
        #expect(result.status == 2)
        #expect(result.standardError == message)
    }

    @Test func outputFolderThatIsAFileIsAnIOError() throws {
        let folder = try TemporaryFolder()
        try folder.write("Schema/Notes.yaml", schema)
        try folder.write("Gen", "a file, not a folder")
        let result = try Syncgen.run(["generate", "Schema", "--output", "Gen"], in: folder.url)
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("syncgen: error: cannot write to 'Gen'"))
    }

    @Test func helpDescribesGenerate() throws {
        let folder = try TemporaryFolder()
        let help = try Syncgen.run(["generate", "--help"], in: folder.url)
        #expect(help.status == 0 && help.standardOutput.contains("--relative-to <folder>"))
    }
}
