import Foundation
import Testing
import SyncGenerator

/// Runs git in `folder` for a test's repository; a failure fails the test.
private func git(_ arguments: [String], in folder: URL) throws {
    let identity = ["-c", "user.name=syncgen tests", "-c", "user.email=tests@syncgen.invalid", "-c", "commit.gpgsign=false"]
    let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["git"] + identity + arguments, in: folder)
    try #require(result.status == 0, "git \(arguments.joined(separator: " ")) failed: \(result.standardError)")
}

@Suite("syncgen diff, validate --baseline and export, as CI runs them")
struct EvolutionCommandTests {
    private let deployed = "models:\n  Note:\n    fields:\n      title: string\n      size: int\n"
    private let grown = "models:\n  Note:\n    fields:\n      title: string\n      size: int\n      color: { type: string, optional: true }\n"
    private let shrunk = "models:\n  Note:\n    fields:\n      title: string\n"

    @Test func diffWithNothingBreakingExitsZeroAndListsSafeChanges() throws {
        let folder = try TemporaryFolder()
        try folder.write("Old/Notes.yaml", deployed)
        try folder.write("New/Notes.yaml", grown)
        let result = try Syncgen.run(["diff", "Old", "New"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.standardOutput == "New/Notes.yaml:6:7: safe change: field 'color' added to 'Note'\n")
        #expect(result.standardError == "syncgen: baseline 'Old': 0 breaking changes, 1 safe change\n")
    }

    @Test func diffWithABreakingChangeExitsOne() throws {
        let folder = try TemporaryFolder()
        try folder.write("Old.yaml", deployed)
        try folder.write("New.yaml", shrunk)
        let result = try Syncgen.run(["diff", "Old.yaml", "New.yaml"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.standardError == """
            Old.yaml:5:7: error: field 'size' of record type 'Note' is gone; CloudKit's production schema cannot lose it, and older app versions still write it [SG1502]
            New.yaml:2:3: note: record type 'Note' is declared here now
            syncgen: baseline 'Old.yaml': 1 breaking change, 0 safe changes

            """)
    }

    @Test func diffPrintsJSON() throws {
        let folder = try TemporaryFolder()
        try folder.write("Old.yaml", deployed)
        try folder.write("New.yaml", shrunk)
        let result = try Syncgen.run(["diff", "--format", "json", "Old.yaml", "New.yaml"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.standardError.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["code"] as? String } == ["SG1502", "SG1502"])
        #expect((object["safeChanges"] as? [Any])?.isEmpty == true)
    }

    @Test func diffUsageErrorsExitTwo() throws {
        let folder = try TemporaryFolder()
        try folder.write("New.yaml", deployed)
        for arguments in [["diff", "New.yaml"], ["diff", "Missing.yaml", "New.yaml"], ["diff", "--format", "xml", "New.yaml", "New.yaml"]] {
            let result = try Syncgen.run(arguments, in: folder.url)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.standardError.hasPrefix("syncgen: error: "), "\(arguments)")
        }
    }

    @Test func diffOfAnInvalidSchemaComparesNothing() throws {
        let folder = try TemporaryFolder()
        try folder.write("Old.yaml", deployed)
        try folder.write("New.yaml", "models:\n  Note:\n    fields: { title: strng }\n")
        let result = try Syncgen.run(["diff", "Old.yaml", "New.yaml"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.standardError.hasSuffix("syncgen: baseline 'Old.yaml': the new schema has errors; nothing compared\n"))
    }

    @Test func validateWithABaselineReportsBreakingChangesAsErrors() throws {
        let folder = try TemporaryFolder()
        try folder.write("Deployed/Notes.yaml", deployed)
        try folder.write("Schema/Notes.yaml", shrunk)
        let result = try Syncgen.run(["validate", "Schema", "--baseline", "Deployed"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("Deployed/Notes.yaml:5:7: error: field 'size' of record type 'Note' is gone"))
        #expect(result.standardError.hasSuffix("syncgen: invalid: 1 file, 1 model: 1 error, 0 warnings; baseline 'Deployed': 1 breaking change, 0 safe changes\n"))

        try folder.write("Schema/Notes.yaml", grown)
        #expect(try Syncgen.run(["validate", "Schema", "--baseline", "Deployed"], in: folder.url).status == 0)
        let both = try Syncgen.run(["validate", "Schema", "--baseline", "Deployed", "--baseline-git", "main"], in: folder.url)
        #expect(both.status == 2)
    }

    @Test func aRequiredFieldAddedIsAWarningThatCanFailCI() throws {
        let folder = try TemporaryFolder()
        try folder.write("Old.yaml", deployed)
        try folder.write("New.yaml", deployed + "      count: int\n")
        #expect(try Syncgen.run(["validate", "New.yaml", "--baseline", "Old.yaml"], in: folder.url).status == 0)
        let strict = try Syncgen.run(["validate", "New.yaml", "--baseline", "Old.yaml", "--warnings-as-errors"], in: folder.url)
        #expect(strict.status == 1)
        #expect(strict.standardError.contains("New.yaml:6:7: error: new field 'count' of record type 'Note' is required"))
    }

    @Test func theBaselineComesFromGit() throws {
        let folder = try TemporaryFolder()
        try git(["init", "--quiet", "--initial-branch=main"], in: folder.url)
        try folder.write("App/Schema/Notes.yaml", deployed)
        try git(["add", "."], in: folder.url)
        try git(["commit", "--quiet", "-m", "Deployed schema"], in: folder.url)
        try folder.write("App/Schema/Notes.yaml", shrunk)
        let app = folder.url.appendingPathComponent("App")

        let result = try Syncgen.run(["validate", "Schema", "--baseline-git", "main"], in: app)
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("main:Schema/Notes.yaml:5:7: error: field 'size' of record type 'Note' is gone"))

        let diff = try Syncgen.run(["diff", "--baseline-git", "main", "Schema/Notes.yaml"], in: app)
        #expect(diff.status == 1)

        try folder.write("App/Schema/Notes.yaml", grown)
        try folder.write("App/Schema/Tags.yaml", "models:\n  Tag:\n    fields: {}\n")
        let grownResult = try Syncgen.run(["diff", "--baseline-git", "main", "Schema"], in: app)
        #expect(grownResult.status == 0)
        #expect(grownResult.standardOutput == """
            Schema/Notes.yaml:6:7: safe change: field 'color' added to 'Note'
            Schema/Tags.yaml:2:3: safe change: record type 'Tag' added (model 'Tag')

            """)

        let unknown = try Syncgen.run(["diff", "--baseline-git", "no-such-branch", "Schema"], in: app)
        #expect(unknown.status == 2)
        #expect(unknown.standardError == "syncgen: error: unknown git ref 'no-such-branch'\n")
    }

    @Test func aGitRefWithoutTheSchemaIsAnEmptyBaseline() throws {
        let folder = try TemporaryFolder()
        try git(["init", "--quiet", "--initial-branch=main"], in: folder.url)
        try folder.write("README", "first commit, before any schema\n")
        try git(["add", "."], in: folder.url)
        try git(["commit", "--quiet", "-m", "Start"], in: folder.url)
        try folder.write("Schema/Notes.yaml", deployed)
        let result = try Syncgen.run(["validate", "Schema", "--baseline-git", "main"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.standardError.hasSuffix("baseline 'main' has no schema files there: every model is new (1 safe change)\n"))
    }

    @Test func exportCkdbPrintsTheSchemaOrNothing() throws {
        let folder = try TemporaryFolder()
        try folder.write("A.yaml", deployed)
        let result = try Syncgen.run(["export", "ckdb", "A.yaml"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("DEFINE SCHEMA\n\n    RECORD TYPE Note (\n"))
        #expect(result.standardError.isEmpty)

        try folder.write("B.yaml", "models:\n  Note:\n    fields: { title: strng }\n")
        let broken = try Syncgen.run(["export", "ckdb", "B.yaml"], in: folder.url)
        #expect(broken.status == 1)
        #expect(broken.standardOutput.isEmpty)
        #expect(broken.standardError.hasSuffix("; nothing exported\n"))
    }

    @Test func exportJSONSchemaReadsNoFiles() throws {
        let folder = try TemporaryFolder()
        let result = try Syncgen.run(["export", "json-schema"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("{\n  \"$schema\": \"http://json-schema.org/draft-07/schema#\""))
        let strayPath = try Syncgen.run(["export", "json-schema", "Schema"], in: folder.url)
        #expect(strayPath.status == 2)
        let unknown = try Syncgen.run(["export", "ckd", "Schema"], in: folder.url)
        #expect(unknown.standardError == "syncgen: error: unknown export format 'ckd'; did you mean 'ckdb'?\n")
    }

    @Test func exportMermaidAndDotDrawTheSchemaOrNothing() throws {
        let folder = try TemporaryFolder()
        try folder.write("A.yaml", deployed)
        let mermaid = try Syncgen.run(["export", "mermaid", "A.yaml"], in: folder.url)
        #expect(mermaid.status == 0 && mermaid.standardOutput.hasPrefix("flowchart LR\n    subgraph private[\"private database\"]\n"))
        let dot = try Syncgen.run(["export", "mermaid", "--format", "dot", "A.yaml"], in: folder.url)
        #expect(dot.status == 0 && dot.standardOutput.hasPrefix("digraph Schema {\n"))
        #expect(try Syncgen.run(["export", "dot", "A.yaml"], in: folder.url).standardOutput == dot.standardOutput)
        let unknown = try Syncgen.run(["export", "mermaid", "--format", "svg", "A.yaml"], in: folder.url)
        #expect(unknown.status == 2 && unknown.standardError == "syncgen: error: unknown diagram format 'svg'; use mermaid or dot\n")
        try folder.write("B.yaml", "models:\n  Note:\n    fields: { title: strng }\n")
        let broken = try Syncgen.run(["export", "mermaid", "B.yaml"], in: folder.url)
        #expect(broken.status == 1 && broken.standardOutput.isEmpty && broken.standardError.hasSuffix("; nothing exported\n"))
    }

    @Test func explainPrintsACodesExplanationOrListsThemAll() throws {
        let folder = try TemporaryFolder()
        let one = try Syncgen.run(["explain", "sg0601"], in: folder.url)
        #expect(one.status == 0 && one.standardOutput.hasPrefix("SG0601 (error): 'to' names no model\n\nWhat it protects against:\n"))
        #expect(one.standardOutput.contains("Reported (SG0601):\n  models:\n") && one.standardOutput.contains("Fixed:\n"))
        let all = try Syncgen.run(["explain"], in: folder.url)
        #expect(all.status == 0 && all.standardOutput.split(separator: "\n").filter { $0.hasPrefix("SG") }.count == DiagnosticCode.allCases.count)
        let unknown = try Syncgen.run(["explain", "SG0610x"], in: folder.url)
        #expect(unknown.status == 2 && unknown.standardError == "syncgen: error: unknown diagnostic code 'SG0610x'; did you mean 'SG0610'?\n")
        let two = try Syncgen.run(["explain", "SG0101", "SG0102"], in: folder.url)
        #expect(two.status == 2)
        #expect(try Syncgen.run(["help", "explain"], in: folder.url).standardOutput.hasPrefix("OVERVIEW: Explain a diagnostic code"))
    }
}
