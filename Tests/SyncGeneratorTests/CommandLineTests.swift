import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

@Suite("syncgen validate, as a user runs it")
struct CommandLineTests {
    private let valid = "models:\n  A:\n    fields: { title: string }\n"
    private let broken = "models:\n  A:\n    fields: { title: strng }\n"

    @Test func validSchemaExitsZeroWithASummary() throws {
        let folder = try TemporaryFolder()
        try folder.write("Schema/A.yaml", valid)
        let result = try Syncgen.run(["validate", "Schema"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "syncgen: valid: 1 file, 1 model: 0 errors, 0 warnings\n")
    }

    /// A note is advice on a valid schema: it is printed and counted, and fails nothing, not even
    /// with `--warnings-as-errors`.
    @Test func aNoteNeverFailsValidation() throws {
        let folder = try TemporaryFolder()
        try folder.write("Schema/A.yaml", "models:\n  A:\n    fields: { tags: { type: list, of: string } }\n")
        let result = try Syncgen.run(["validate", "--warnings-as-errors", "Schema"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.standardError.hasPrefix("Schema/A.yaml:3:15: note: field 'tags' of model 'A' is a list without 'merge'"), "\(result.standardError)")
        #expect(result.standardError.hasSuffix("[SG1609]\nsyncgen: valid: 1 file, 1 model: 0 errors, 0 warnings, 1 note\n"), "\(result.standardError)")
    }

    @Test func errorsGoToStandardErrorAsCompilersPrintThem() throws {
        let folder = try TemporaryFolder()
        try folder.write("Schema/A.yaml", broken)
        let result = try Syncgen.run(["validate", "Schema/"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.standardError == """
            Schema/A.yaml:3:22: error: unknown type 'strng' for field 'title' of model 'A'; did you mean 'string'? [SG0602]
            syncgen: invalid: 1 file, 1 model: 1 error, 0 warnings

            """)
    }

    @Test func jsonGoesToStandardOutput() throws {
        let folder = try TemporaryFolder()
        try folder.write("A.yaml", broken)
        let result = try Syncgen.run(["validate", "--format", "json", "A.yaml"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.standardError.isEmpty)
        let parsed = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]]
        let first = try #require(parsed?.first)
        #expect(first["file"] as? String == "A.yaml")
        #expect(first["line"] as? Int == 3 && first["column"] as? Int == 22)
        #expect(first["severity"] as? String == "error" && first["code"] as? String == "SG0602")
        #expect(try Syncgen.run(["validate", "--format=json", "A.yaml"], in: folder.url).standardOutput == result.standardOutput)
    }

    @Test func warningsPassUnlessTreatedAsErrors() throws {
        let folder = try TemporaryFolder()
        try folder.write("A.yaml", "models:\n  note:\n    fields: {}\n")
        #expect(try Syncgen.run(["validate", "A.yaml"], in: folder.url).status == 0)
        let strict = try Syncgen.run(["validate", "--warnings-as-errors", "A.yaml"], in: folder.url)
        #expect(strict.status == 1)
        #expect(strict.standardError.hasPrefix("A.yaml:2:3: error: model name 'note'"))
    }

    @Test func foldersAreSearchedRecursivelyInSortedOrderSkippingHiddenFiles() throws {
        let folder = try TemporaryFolder()
        let broken = { (model: String) in "models:\n  \(model):\n    fields: { title: strng }\n" }
        try folder.write("Schema/b/Z.yml", broken("Z"))
        try folder.write("Schema/a.yaml", broken("A"))
        try folder.write("Schema/.hidden/H.yaml", broken("H"))
        try folder.write("Schema/.H.yaml", broken("I"))
        try folder.write("Schema/readme.txt", broken("T"))
        let result = try Syncgen.run(["validate", "--format", "json", "Schema"], in: folder.url)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        #expect(parsed.compactMap { $0["file"] as? String } == ["Schema/a.yaml", "Schema/b/Z.yml"])
    }

    /// One file of a multi-file schema, validated alone: a model it names from a file beside it
    /// is unknown to this run, and the error says where it is declared and to pass the folder.
    /// With the folder, the schema is valid.
    @Test func oneFileOfAMultiFileSchemaPointsAtTheFolder() throws {
        let folder = try TemporaryFolder()
        try folder.write("Schema/Notes.yaml", "models:\n  Note:\n    fields:\n      author: { type: reference, to: Person }\n")
        try folder.write("Schema/People.yaml", "models:\n  Person:\n    fields: { name: string }\n")
        let alone = try Syncgen.run(["validate", "Schema/Notes.yaml"], in: folder.url)
        #expect(alone.status == 1)
        #expect(alone.standardError.hasPrefix("""
            Schema/Notes.yaml:4:38: error: field 'author' references unknown model 'Person'; it is declared in 'Schema/People.yaml', which this run does not read: validate the folder to check the files together [SG0601]
            Schema/People.yaml:2:3: note: 'Person' is declared here
            """))
        #expect(try Syncgen.run(["validate", "Schema"], in: folder.url).status == 0)
        // A name no file declares keeps its plain error.
        try folder.write("Schema/Notes.yaml", "models:\n  Note:\n    fields:\n      author: { type: reference, to: Nobody }\n")
        #expect(!(try Syncgen.run(["validate", "Schema/Notes.yaml"], in: folder.url).standardError.contains("declared in")))
    }

    @Test func aFileNamedTwiceIsReadOnce() throws {
        let folder = try TemporaryFolder()
        try folder.write("Schema/A.yaml", valid)
        let result = try Syncgen.run(["validate", "Schema", "Schema/A.yaml", "./Schema/A.yaml"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.standardError.contains("1 file, 1 model"))
    }

    // MARK: - Usage errors: one line, exit 2

    @Test(arguments: [
        (["validate"], "syncgen: error: 'validate' needs at least one schema file or folder\n"),
        (["validate", "--frmat", "json", "A.yaml"], "syncgen: error: unknown option '--frmat' for 'validate'; did you mean '--format'?\n"),
        (["validate", "--format", "xml", "A.yaml"], "syncgen: error: unknown format 'xml'; use text or json\n"),
        (["validate", "A.yaml", "--format"], "syncgen: error: '--format' needs a value: text or json\n"),
        (["valdate", "A.yaml"], "syncgen: error: unknown command 'valdate'; did you mean 'validate'?\n"),
        (["--verbose"], "syncgen: error: unknown option '--verbose'; a command comes first (syncgen validate ...)\n"),
        (["validate", "Missing.yaml"], "syncgen: error: no such file or folder: 'Missing.yaml'\n"),
        (["validate", "Empty"], "syncgen: error: folder 'Empty' is empty; it holds no schema files (*.yaml, *.yml)\n"),
        (["validate", "Docs"], "syncgen: error: folder 'Docs' holds no schema files (*.yaml, *.yml)\n"),
    ])
    func usageErrorExitsTwoWithOneLine(_ arguments: [String], _ message: String) throws {
        let folder = try TemporaryFolder()
        try folder.write("A.yaml", valid)
        try folder.makeFolder("Empty")
        try folder.write("Docs/readme.md", "# not a schema\n")
        let result = try Syncgen.run(arguments, in: folder.url)
        #expect(result.status == 2)
        #expect(result.standardError == message)
        #expect(result.standardOutput.isEmpty)
    }

    @Test func unreadableFileExitsTwo() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("A.yaml", valid)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: file.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path) }
        guard !FileManager.default.isReadableFile(atPath: file.path) else { return }  // root reads anything
        let result = try Syncgen.run(["validate", "A.yaml"], in: folder.url)
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("syncgen: error: cannot read 'A.yaml'"))
    }

    /// A FIFO or a device named directly is refused as what it is, before any read (reading
    /// one would block or never end), and a file too large is refused with its exact size.
    @Test func specialFilesAndOversizedFilesSayWhatTheyAre() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.url.appendingPathComponent("pipe.yaml")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let piped = try Syncgen.run(["validate", "pipe.yaml"], in: folder.url)
        #expect(piped.status == 2)
        #expect(piped.standardError.hasPrefix("syncgen: error: 'pipe.yaml' is not a regular file (a FIFO or other special file)"), "\(piped.standardError)")
        let device = try Syncgen.run(["validate", "/dev/zero"], in: folder.url)
        #expect(device.status == 2)
        #expect(device.standardError.hasPrefix("syncgen: error: '/dev/zero' is not a regular file (a character device)"), "\(device.standardError)")
        let large = try folder.write("Large.yaml", "")
        let handle = try FileHandle(forWritingTo: large)
        try handle.truncate(atOffset: 67_201_059)
        try handle.close()
        let oversized = try Syncgen.run(["validate", "Large.yaml"], in: folder.url)
        #expect(oversized.status == 2)
        #expect(oversized.standardError.hasPrefix("syncgen: error: 'Large.yaml' is 67,201,059 bytes; schema files larger than 67,108,864 bytes (64 MiB) are refused"), "\(oversized.standardError)")
    }

    // MARK: - Help and version

    @Test func helpAndVersion() throws {
        let folder = try TemporaryFolder()
        let help = try Syncgen.run(["--help"], in: folder.url)
        #expect(help.status == 0 && help.standardOutput.contains("USAGE: syncgen <command> [options]"))
        #expect(try Syncgen.run([], in: folder.url).standardOutput == help.standardOutput)
        let validateHelp = try Syncgen.run(["validate", "--help"], in: folder.url)
        #expect(validateHelp.status == 0 && validateHelp.standardOutput.contains("--warnings-as-errors"))
        #expect(try Syncgen.run(["help", "validate"], in: folder.url).standardOutput == validateHelp.standardOutput)
        let version = try Syncgen.run(["--version"], in: folder.url)
        #expect(version.status == 0 && version.standardOutput.hasPrefix("syncgen "))
    }

    // MARK: - Bad files reach the user as diagnostics, never crashes

    @Test func badFilesAreDiagnosedWithLocations() throws {
        let folder = try TemporaryFolder()
        try folder.write("s/binary.yaml", Data([0x7F, 0x45, 0x4C, 0x46, 0x00, 0x01]))
        try folder.write("s/empty.yaml", "")
        try folder.write("s/latin1.yaml", Data([0x61, 0x3A, 0x20, 0xE9, 0x0A]))
        try folder.write("s/deep.yaml", String(repeating: "[", count: 100_000))
        let result = try Syncgen.run(["validate", "s"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.standardError == """
            s/binary.yaml:1:1: error: the file is not text: it holds a control character (byte 0x7f) [SG0101]
            s/deep.yaml:1:65: error: the YAML nests more than 64 levels deep; a schema never needs that many [SG0108]
            s/empty.yaml:1:1: warning: the file holds no schema; it contributes no models [SG0109]
            s/latin1.yaml:1:4: error: the file is not valid UTF-8 text (incomplete UTF-8 octet sequence) [SG0101]
            syncgen: invalid: 4 files, 0 models: 3 errors, 1 warning

            """)
    }
}
