import Foundation
import Testing
import SyncGenerator

@Suite("Pipeline: whole schemas across files")
struct PipelineTests {
    @Test func diagnosticTextMatchesTheContractExactly() {
        let result = validate("models:\n  Person:\n    fields: {}\n  Note:\n    fields:\n      author: { type: reference, to: Persn }\n", file: "Schema/Notes.yaml")
        #expect(result.rendered == """
            Schema/Notes.yaml:6:38: error: field 'author' references unknown model 'Persn'; did you mean 'Person'? [SG0601]
            Schema/Notes.yaml:2:3: note: 'Person' is declared here

            """)
    }

    /// `syncgen validate FILE` reads the files beside FILE only when FILE names a model it does not
    /// declare: a valid file next to a large (or broken) one costs what the file alone costs.
    /// Breaking it (reading the files beside up front) makes the first expectation fail.
    @Test func filesBesideAreReadOnlyForANameLeftUnresolved() {
        let beside = SchemaSource(path: "Schema/People.yaml", text: "models:\n  Person:\n    fields: { name: string }\n")
        var reads = 0
        let valid = SchemaPipeline().validate([SchemaSource(path: "Schema/Tags.yaml", text: "models:\n  Tag:\n    fields: { name: string }\n")],
            readingBesides: { reads += 1; return [beside] })
        #expect(valid.schema != nil && reads == 0)
        let unresolved = SchemaPipeline().validate([SchemaSource(path: "Schema/Notes.yaml", text: "models:\n  Note:\n    fields:\n      author: { type: reference, to: Person }\n")],
            readingBesides: { reads += 1; return [beside] })
        #expect(reads == 1)
        #expect(unresolved.diagnostics.first?.message.contains("it is declared in 'Schema/People.yaml'") == true)
    }

    @Test func jsonListsEachDiagnosticAndItsNotes() {
        let result = validate("models:\n  A:\n    fields: {}\n  A:\n    fields: {}\n", file: "S.yaml")
        #expect(DiagnosticJSONRenderer.render(result.diagnostics) == """
            [
              {"file": "S.yaml", "line": 4, "column": 3, "severity": "error", "code": "SG0501", "message": "model 'A' is declared more than once", "documentation": "docs/Diagnostics.md#sg0501"},
              {"file": "S.yaml", "line": 2, "column": 3, "severity": "note", "code": "SG0501", "message": "'A' is first declared here", "documentation": "docs/Diagnostics.md#sg0501"}
            ]

            """)
        #expect(DiagnosticJSONRenderer.render([]) == "[]\n")
    }

    @Test func jsonEscapesQuotesAndControlCharacters() {
        let diagnostic = Diagnostic(.unknownKey, "a \"b\" \\ \n\u{1}", at: SourceLocation(file: "d\"ir/f.yaml", line: 1, column: 2))
        #expect(DiagnosticJSONRenderer.render([diagnostic]).contains(#""file": "d\"ir/f.yaml""#))
        #expect(DiagnosticJSONRenderer.render([diagnostic]).contains(#""message": "a \"b\" \\ \n\u0001""#))
    }

    /// A name holding a right-to-left override or a NUL is echoed escaped: printed raw, the
    /// override reorders the terminal's line and the NUL cuts it. JSON escapes them as JSON does,
    /// so a tool reads the exact text back. Breaking it: printing messages as they are puts
    /// U+202E into the output.
    @Test func controlAndBidirectionalCharactersAreEchoedEscaped() {
        // YAML's own escapes put the two characters into the name.
        let result = validate(["S.yaml": #"models:"# + "\n" + #"  "A\u202EB\0":"# + "\n    fields: {}\n"])
        #expect(result.rendered.contains(#"A\u{202E}B\u{0}"#), "\(result.rendered)")
        #expect(!result.rendered.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0 })
        let json = DiagnosticJSONRenderer.render(result.diagnostics)
        #expect(json.contains(#"A\u202eB\u0000"#), "\(json)")
    }

    @Test func duplicateModelAcrossFilesPointsAtBoth() {
        let result = validate(["a/Lists.yaml": "models:\n  List:\n    fields: {}\n", "b/Lists.yaml": "models:\n  Item:\n    fields: {}\n  List:\n    fields: {}\n"])
        #expect(result.rendered == """
            b/Lists.yaml:4:3: error: model 'List' is declared more than once [SG0501]
            a/Lists.yaml:2:3: note: 'List' is first declared here

            """)
    }

    @Test func referencesResolveAcrossFiles() {
        let result = validate(["A.yaml": "models:\n  A:\n    fields:\n      b: { type: reference, to: B }\n", "B.yaml": "models:\n  B:\n    parent: A\n    fields: {}\n"])
        #expect(result.diagnostics.isEmpty, "\(result.rendered)")
    }

    @Test func parentCycleNamesEveryLink() {
        let result = validate("models:\n  A:\n    parent: C\n    fields: {}\n  B:\n    parent: A\n    fields: {}\n  C:\n    parent: B\n    fields: {}\n")
        #expect(result.rendered == """
            Schema.yaml:3:13: error: parent chain of model 'A' is a cycle: A -> C -> B -> A [SG0805]
            Schema.yaml:9:13: note: 'C' names its parent here
            Schema.yaml:6:13: note: 'B' names its parent here

            """)
    }

    /// Each model is walked once, so a walk that starts outside a cycle (at `A`) finds it first;
    /// the cycle is still told once, from its model declared first (`B`), and `A` is not in it.
    @Test func parentCycleEnteredFromOutsideIsToldFromItsFirstModel() {
        let result = validate("models:\n  A:\n    parent: C\n    fields: {}\n  B:\n    parent: C\n    fields: {}\n  C:\n    parent: B\n    fields: {}\n")
        #expect(result.rendered == """
            Schema.yaml:6:13: error: parent chain of model 'B' is a cycle: B -> C -> B [SG0805]
            Schema.yaml:9:13: note: 'C' names its parent here

            """)
    }

    @Test func fileOrderNeverChangesTheOutput() {
        let files = ["b.yaml": "models:\n  B:\n    fields: { x: Strin }\n", "a.yaml": "models:\n  A:\n    fields: { y: nope }\n"]
        let forward = SchemaPipeline().validate(files.sorted { $0.key < $1.key }.map { SchemaSource(path: $0.key, text: $0.value) })
        let backward = SchemaPipeline().validate(files.sorted { $0.key > $1.key }.map { SchemaSource(path: $0.key, text: $0.value) })
        #expect(forward.diagnostics == backward.diagnostics)
        #expect(forward.diagnostics.map(\.location.file) == ["a.yaml", "b.yaml"])
    }

    @Test func allProblemsOfAllFilesInOneRun() {
        let result = validate(["a.yaml": "models:\n  A:\n    fields: { x: strin, y: { type: int, default: no } }\n", "b.yaml": "modelz: {}\n"])
        #expect(result.findings == [
            Finding(.unknownType, line: 3, column: 18),
            Finding(.defaultTypeMismatch, line: 3, column: 50),
            Finding(.missingRequiredKey, line: 1, column: 1),
            Finding(.unknownKey, line: 1, column: 1),
        ])
    }

    @Test func unreadableFileSilencesUnknownModelErrorsThatItMayExplain() {
        let result = validate(["a.yaml": "models:\n  A:\n    parent: B\n    fields:\n      b: { type: reference, to: B }\n      c: strng\n", "b.yaml": "models:\n  B: [\n"])
        #expect(result.findings == [Finding(.unknownType, line: 6, column: 10), Finding(.yamlSyntax, line: 3, column: 1)])
        #expect(result.schema == nil)
    }

    @Test func warningsAloneKeepTheSchema() {
        let result = validate("models:\n  note:\n    fields: {}\n")
        #expect(result.findings == [Finding(.modelNameNotCapitalized, .warning, line: 2, column: 3)])
        #expect(result.schema != nil)
    }

    @Test func resolvedSchemaCarriesTypesDefaultsAndCatalogs() throws {
        let result = validate("""
            models:
              Note:
                publishAs: PublishedNote
                fields:
                  title: { type: string, default: "Untitled" }
                  tags: { type: list, of: string, default: [a] }
                  when: { type: date, default: 1970-01-02 }
                  cover: asset
              PublishedNote:
                scopes: [public]
                catalog: { governed: true }
                fields:
                  title: { type: string, index: [sortable, sortable] }
                  tags: { type: list, of: string }
                  cover: asset
                  mine: { type: bool, localOnly: true }
                  views: { type: int, serverOwned: true }
            """)
        let schema = try #require(result.schema, "\(result.rendered)")
        let note = try #require(schema.model(named: "Note"))
        #expect(note.scopes == .privateOnly && note.publishAs == "PublishedNote" && note.catalog == nil)
        #expect(note.fields.map(\.defaultValue) == [.string("Untitled"), .list([.string("a")]), .date(secondsSince1970: 86_400), nil])
        #expect(note.assetFields.map(\.field.name) == ["cover"] && note.assetFields.first?.recordKeys == .first)
        let published = try #require(schema.model(named: "PublishedNote"))
        #expect(published.catalog == Catalog(desiredFields: ["title", "tags", "views"], initialState: .listed, isGoverned: true))
        #expect(published.field(named: "title")?.indexes == [.sortable])
        #expect(schema.draft(publishingInto: "PublishedNote")?.name == "Note")
    }

    // MARK: - Size

    @Test func twentyMegabyteFileValidates() throws {
        var text = "models:\n"
        var models = 0
        while text.utf8.count < 20_000_000 {
            text += "  Model\(models):\n    fields:\n"
            for field in 0..<20 {
                text += "      field\(field): { type: string, optional: true, default: \"a long default value to fill the file quickly\" }\n"
            }
            models += 1
        }
        let result = validate(text)
        #expect(result.diagnostics.isEmpty)
        #expect(try #require(result.schema).models.count == models)
    }

    @Test func twentyThousandModelsValidate() {
        let files = (0..<100).map { part in
            (path: "Part\(part).yaml", text: "models:\n" + (0..<200).map { "  M\(part)x\($0):\n    parent: M0x0\n    fields: { a: string, b: int }\n" }.joined())
        }
        let result = SchemaPipeline().validate(files.map { SchemaSource(path: $0.path, text: $0.text) })
        // M0x0 names itself as its parent: exactly one cycle, nothing else.
        #expect(result.findings == [Finding(.parentCycle, line: 3, column: 13)])
        #expect(result.modelCount == 20_000)
    }
}
