import Foundation
import Testing
import SyncGenerator
import SyncRuntime

private func schema(_ sources: [SchemaSource]) throws -> Schema {
    let result = SchemaPipeline().validate(sources)
    return try #require(result.schema, "\(result.rendered)")
}

/// Compares `text` with a checked-in file, rewriting it first under SYNCGEN_UPDATE_GOLDENS=1.
private func expectGolden(_ text: String, at path: String) throws {
    let url = repositoryRoot.appendingPathComponent(path)
    if ProcessInfo.processInfo.environment["SYNCGEN_UPDATE_GOLDENS"] == "1" {
        try Data(text.utf8).write(to: url)
    }
    let onDisk = try String(contentsOf: url, encoding: .utf8)
    #expect(onDisk == text, "\(path) is stale: run SYNCGEN_UPDATE_GOLDENS=1 swift test --filter ExportTests and review the diff")
}

@Suite("Exports: the schema's reference for people")
struct SchemaReferenceExportTests {
    /// The Notes example's reference, descriptions included, as checked in.
    @Test func theNotesReferenceMatchesItsGolden() throws {
        let schema = try schema(try schemaSources("Examples/Notes/Sources/NotesDemo/Schema"))
        try expectGolden(SchemaReferenceExport.markdown(schema), at: "Tests/SyncGeneratorTests/Goldens/Notes.reference.md")
    }

    /// Each model's and field's description, a case's, the Swift and CloudKit types, and what
    /// else the schema says; a `|` or a line break in a description keeps the table whole.
    /// Breaking it (a description left out, or written raw into a cell): these lines differ.
    @Test func theReferenceCarriesTheSchemasWords() throws {
        let schema = try schema([SchemaSource(path: "S.yaml", text: """
            models:
              Item:
                description: |
                  Something to buy.
                  On a shared list.
                scopes: [private, shared]
                fields:
                  title: { type: string, description: "The name | as written" }
                  size:
                    type: enum
                    cases: [small, { large: The family pack. }]
                    description: |
                      How big.
                      Optional.
                    optional: true
                  cursor: { type: int, localOnly: true }
            """)])
        let reference = SchemaReferenceExport.markdown(schema)
        #expect(reference.contains("## Item\n\nSomething to buy.\nOn a shared list.\n\nRecord type `Item`, in the private and shared databases."))
        #expect(reference.contains("| `title` | `String` | `title`, `STRING` |  | The name \\| as written |"))
        #expect(reference.contains("| `size` | `Size?` | `size`, `STRING` | optional; cases: `small`, `large` (The family pack.) | How big.<br>Optional. |"))
        #expect(reference.contains("| `cursor` | `Int64` | local only |  |  |"))
    }
}

@Suite("Exports: schema diagrams (Mermaid, DOT)")
struct SchemaDiagramExportTests {
    static let goldens = [
        ("Examples/Notes/Sources/NotesDemo/Schema", "Tests/SyncGeneratorTests/Goldens/Notes"),
        ("Tests/GeneratedCoverage/Schema", "Tests/SyncGeneratorTests/Goldens/Coverage"),
    ]

    @Test(arguments: goldens)
    func diagramsMatchTheirGoldens(_ golden: (schema: String, prefix: String)) throws {
        let schema = try schema(try schemaSources(golden.schema))
        try expectGolden(SchemaDiagramExport.render(schema, as: .mermaid), at: golden.prefix + ".mmd")
        try expectGolden(SchemaDiagramExport.render(schema, as: .dot), at: golden.prefix + ".dot")
    }

    /// A model's description is its first note, its first line alone. Breaking it (the
    /// description left out of the node): the line is missing.
    @Test func aModelsDescriptionIsItsFirstNote() throws {
        let schema = try schema([SchemaSource(path: "S.yaml", text: "models:\n  Item:\n    description: |\n      Something to buy.\n      More.\n    fields:\n      title: string\n")])
        #expect(SchemaDiagramExport.render(schema, as: .mermaid).contains(#"m_Item["<b>Item</b><br/><i>Something to buy.</i><br/>───<br/>title: string"]"#))
    }

    /// Every part of the language the diagram draws, each in its place.
    @Test func theDiagramShowsGroupsFieldsAndEdges() throws {
        let schema = try schema([SchemaSource(path: "S.yaml", text: """
            models:
              end:
                recordType: EndRecord
                scopes: [private, shared]
                shareable: true
                unique: [title]
                merge: serverWins
                fields:
                  title: string
                  pin: { type: string, encrypted: true, optional: true }
              Item:
                scopes: [private, shared]
                parent: end
                fields:
                  owner: { type: reference, to: end, onDelete: deleteSelf }
                  tags: { type: list, of: string, merge: union }
                  cursor: { type: int, localOnly: true }
              Draft:
                publishAs: Pub
                fields: {}
              Pub:
                scopes: [public]
                fields:
                  likes: { type: int, serverOwned: true }
            """)])
        let mermaid = SchemaDiagramExport.render(schema, as: .mermaid)
        #expect(mermaid.hasPrefix("flowchart LR\n    subgraph private[\"private database\"]\n        m_Draft[\"<b>Draft</b>\"]\n    end\n"))
        #expect(mermaid.contains(#"m_end["<b>end</b><br/><i>record type EndRecord</i><br/><i>share root</i><br/><i>unique: title</i><br/><i>merge: serverWins</i><br/>───<br/>title: string<br/>pin: string? (encrypted)"]"#))
        #expect(mermaid.contains(#"tags: list of string (merge: union)<br/>cursor: int (local-only)"#))
        #expect(mermaid.contains(#"m_Pub["<b>Pub</b><br/><i>catalog</i><br/>───<br/>likes: int (server-owned)"]"#))
        #expect(mermaid.hasSuffix("""
                m_end -->|"parent of"| m_Item
                m_Item -.->|"owner (deleteSelf)"| m_end
                m_Draft ==>|"publishes as"| m_Pub

            """))
        let dot = SchemaDiagramExport.render(schema, as: .dot)
        #expect(dot.contains(#""m_Item" -> "m_end" [label="owner (deleteSelf)", style=dashed];"#))
        #expect(dot.contains(#"subgraph "cluster_public" {"#))
    }

    /// The same models in any files, in any order, draw the same diagram.
    @Test func fileOrderDoesNotChangeTheDiagram() throws {
        let one = try schema([SchemaSource(path: "A.yaml", text: "models:\n  Zebra:\n    fields: {}\n  Apple:\n    fields: {}\n")])
        let two = try schema([
            SchemaSource(path: "B.yaml", text: "models:\n  Apple:\n    fields: {}\n"),
            SchemaSource(path: "A.yaml", text: "models:\n  Zebra:\n    fields: {}\n"),
        ])
        for format in SchemaDiagramExport.Format.allCases {
            #expect(SchemaDiagramExport.render(one, as: format) == SchemaDiagramExport.render(two, as: format))
        }
    }

    /// Examples/Notes/README.md shows its schema's diagram, as the export draws it now.
    @Test func theNotesReadmeShowsTheCurrentDiagram() throws {
        let diagram = SchemaDiagramExport.render(try schema(try schemaSources("Examples/Notes/Sources/NotesDemo/Schema")), as: .mermaid)
        let url = repositoryRoot.appendingPathComponent("Examples/Notes/README.md")
        var readme = try String(contentsOf: url, encoding: .utf8)
        let start = "<!-- schema-diagram: generated by `syncgen export mermaid Sources/NotesDemo/Schema` -->\n```mermaid\n"
        let block = try #require(readme.range(of: start), "Examples/Notes/README.md has no schema diagram block")
        let end = try #require(readme.range(of: "```\n", range: block.upperBound..<readme.endIndex))
        if ProcessInfo.processInfo.environment["SYNCGEN_UPDATE_GOLDENS"] == "1" {
            readme.replaceSubrange(block.upperBound..<end.lowerBound, with: diagram)
            try Data(readme.utf8).write(to: url)
            return
        }
        #expect(String(readme[block.upperBound..<end.lowerBound]) == diagram, "the diagram in Examples/Notes/README.md is stale: run SYNCGEN_UPDATE_GOLDENS=1 swift test --filter SchemaDiagramExportTests")
    }
}

@Suite("Exports: the CloudKit schema (.ckdb)")
struct CloudKitSchemaExportTests {
    static let goldens = [
        ("Examples/Notes/Sources/NotesDemo/Schema", "Tests/SyncGeneratorTests/Goldens/Notes.ckdb"),
        ("Tests/GeneratedCoverage/Schema", "Tests/SyncGeneratorTests/Goldens/Coverage.ckdb"),
    ]

    @Test(arguments: goldens)
    func exportMatchesItsGolden(_ golden: (schema: String, ckdb: String)) throws {
        try expectGolden(CloudKitSchemaExport.ckdb(try schema(try schemaSources(golden.schema))), at: golden.ckdb)
    }

    @Test func fileOrderAndSplitDoNotChangeTheOutput() throws {
        let models = """
            models:
              Zebra:
                fields:
                  b: string
                  a: int
              Apple:
                fields: {}
            """
        let split = [
            SchemaSource(path: "b.yaml", text: "models:\n  Apple:\n    fields: {}\n"),
            SchemaSource(path: "a.yaml", text: "models:\n  Zebra:\n    fields:\n      a: int\n      b: string\n"),
        ]
        #expect(CloudKitSchemaExport.ckdb(try schema([SchemaSource(path: "all.yaml", text: models)])) == CloudKitSchemaExport.ckdb(try schema(split)))
    }

    @Test func aPrivateModel() throws {
        let text = CloudKitSchemaExport.ckdb(try schema([SchemaSource(path: "A.yaml", text: """
            models:
              Item:
                fields:
                  role: { type: string, index: [queryable, sortable, searchable] }
                  tags: { type: list, of: string, encrypted: true }
                  pin: { type: int, encrypted: true }
                  draft: { type: string, localOnly: true }
                  views: { type: int, serverOwned: true }
                  owner: { type: reference, to: Item }
            """)]))
        #expect(text == """
            DEFINE SCHEMA

                RECORD TYPE Item (
                    "___createTime"  TIMESTAMP,
                    "___createdBy"   REFERENCE,
                    "___etag"        STRING,
                    "___modTime"     TIMESTAMP,
                    "___modifiedBy"  REFERENCE,
                    "___recordID"    REFERENCE,
                    clientModifiedAt TIMESTAMP,
                    owner            REFERENCE,
                    pin              ENCRYPTED INT64,
                    "role"           STRING QUERYABLE SEARCHABLE SORTABLE,
                    syncgenVersions  LIST<STRING>,
                    tags             LIST<ENCRYPTED STRING>,
                    views            INT64,
                    GRANT WRITE TO "_creator",
                    GRANT CREATE TO "_icloud",
                    GRANT READ TO "_world"
                );

                RECORD TYPE SyncgenZoneMove (
                    "___createTime" TIMESTAMP,
                    "___createdBy"  REFERENCE,
                    "___etag"       STRING,
                    "___modTime"    TIMESTAMP,
                    "___modifiedBy" REFERENCE,
                    "___recordID"   REFERENCE,
                    syncgenZoneFrom STRING,
                    syncgenZoneInto STRING,
                    GRANT WRITE TO "_creator",
                    GRANT CREATE TO "_icloud",
                    GRANT READ TO "_world"
                );

                RECORD TYPE Users (
                    "___createTime" TIMESTAMP,
                    "___createdBy"  REFERENCE,
                    "___etag"       STRING,
                    "___modTime"    TIMESTAMP,
                    "___modifiedBy" REFERENCE,
                    "___recordID"   REFERENCE QUERYABLE,
                    roles           LIST<INT64>,
                    GRANT WRITE TO "_creator",
                    GRANT READ TO "_world"
                );

            """)
    }

    /// The marker a zone move saves (`SyncgenZoneMove`) is declared when a model lives in a
    /// private zone, and only then: production CloudKit refuses a record of a type it has not
    /// deployed, and a public-only app never moves a zone.
    @Test func aZoneMoveMarkerIsDeclaredWhenAModelLivesInAPrivateZone() throws {
        let publicOnly = CloudKitSchemaExport.ckdb(try schema([SchemaSource(path: "A.yaml", text: "models:\n  Listing:\n    scopes: [public]\n    fields:\n      title: string\n")]))
        let withPrivate = CloudKitSchemaExport.ckdb(try schema([SchemaSource(path: "A.yaml", text: "models:\n  Diary:\n    fields:\n      text: string\n")]))
        #expect(!publicOnly.contains("SyncgenZoneMove"))
        #expect(withPrivate.contains("    RECORD TYPE SyncgenZoneMove (\n"))
    }

    // trap: T20.8 (a public catalog queried without the recordName index returns nothing)
    @Test func aPublicTypeHasItsRecordIDQueryable() throws {
        let text = CloudKitSchemaExport.ckdb(try schema([SchemaSource(path: "A.yaml", text: """
            models:
              Listing:
                scopes: [public]
                fields:
                  title: string
              Secret:
                fields:
                  title: string
            """)]))
        let listing = try #require(text.components(separatedBy: "RECORD TYPE ").first { $0.hasPrefix("Listing") })
        let secret = try #require(text.components(separatedBy: "RECORD TYPE ").first { $0.hasPrefix("Secret") })
        #expect(listing.contains("\"___recordID\"    REFERENCE QUERYABLE,"))
        #expect(secret.contains("\"___recordID\"    REFERENCE,"))
    }

    @Test func theShareTypeIsDeclaredOnlyWhenAModelIsShareable() throws {
        let unshared = CloudKitSchemaExport.ckdb(try schema([SchemaSource(path: "A.yaml", text: "models:\n  A:\n    fields: {}\n")]))
        let shared = CloudKitSchemaExport.ckdb(try schema([SchemaSource(path: "A.yaml", text: "models:\n  A:\n    scopes: [private, shared]\n    shareable: true\n    fields: {}\n")]))
        #expect(!unshared.contains("cloudkit.share"))
        #expect(shared.contains("    RECORD TYPE \"cloudkit.share\" (\n"))
    }

    @Test func namesThatAreWordsOfTheLanguageAreQuoted() throws {
        let text = CloudKitSchemaExport.ckdb(try schema([SchemaSource(path: "A.yaml", text: """
            models:
              Record:
                fields:
                  type: string
                  list: string
                  Grant: string
                  title: string
            """)]))
        #expect(text.contains("RECORD TYPE \"Record\" ("))
        for quoted in ["\"type\" ", "\"list\" ", "\"Grant\" "] {
            #expect(text.contains("        \(quoted)"), "\(quoted) is not quoted")
        }
        #expect(text.contains("        title "))
    }

    @Test func everyRuntimeFieldNameIsExported() throws {
        // The runtime writes these; a schema that lacks one fails in production.
        let text = CloudKitSchemaExport.ckdb(try schema([SchemaSource(path: "A.yaml", text: """
            models:
              Listing:
                scopes: [public]
                catalog: { governed: true }
                fields:
                  cover: asset
              Shelf:
                unique: [title]
                fields:
                  title: string
            """)]))
        let exported = Set(RecordFieldNames.runtimeFields.filter { text.contains("        \($0) ") })
        #expect(exported == Set(RecordFieldNames.runtimeFields).subtracting([RecordFieldNames.ownerName]))
    }
}

@Suite("Exports: the JSON Schema for editors")
struct JSONSchemaExportTests {
    static func checker() throws -> JSONSchemaChecker {
        let text = JSONSchemaExport.schemaLanguage()
        let loaded = YAMLLoader().load(Array(text.utf8), file: "syncgen.schema.json")
        return JSONSchemaChecker(root: Instance(try #require(loaded.root)))
    }

    static func problems(_ yaml: String) throws -> [String] {
        let loaded = YAMLLoader().load(Array(yaml.utf8), file: "A.yaml")
        return try checker().problems(loaded.root.map(Instance.init) ?? .null)
    }

    @Test func theShippedFileIsUpToDate() throws {
        try expectGolden(JSONSchemaExport.schemaLanguage(), at: "docs/syncgen.schema.json")
    }

    @Test func itIsJSON() throws {
        let object = try JSONSerialization.jsonObject(with: Data(JSONSchemaExport.schemaLanguage().utf8))
        #expect(object is [String: Any])
    }

    @Test func everyKeyOfTheLanguageIsDescribed() throws {
        let root = try Self.checker().root
        let levels: [(Instance?, [String])] = [
            (root["properties"], SchemaVocabulary.fileKeys),
            (root["definitions"]?["model"]?["properties"], SchemaVocabulary.modelKeys),
            (root["definitions"]?["field"]?["oneOf"].flatMap { if case .array(let options) = $0 { options.last } else { nil } }?["properties"], SchemaVocabulary.fieldKeys),
            (root["definitions"]?["catalog"]?["properties"], SchemaVocabulary.catalogKeys),
        ]
        for (properties, keys) in levels {
            guard case .object(let members)? = properties else {
                Issue.record("no properties for \(keys)")
                continue
            }
            #expect(members.map(\.0) == keys)
            for (key, schema) in members where key != "type" {
                #expect(schema["description"] != nil, "'\(key)' has no description")
            }
        }
    }

    @Test(arguments: [
        "Examples/Notes/Sources/NotesDemo/Schema", "Tests/GeneratedCoverage/Schema", "Sources/syncgen-bench/Schema",
        "Tests/SyncGeneratorTests/Fixtures/SpecExample",
    ])
    func acceptsTheRepositorysSchemas(_ folder: String) throws {
        for source in try schemaSources(folder) {
            let problems = try Self.problems(String(decoding: source.bytes, as: UTF8.self))
            #expect(problems.isEmpty, "\(source.path): \(problems)")
        }
    }

    @Test(arguments: passingCases)
    func acceptsEveryPassingCase(_ passing: PassingCase) throws {
        #expect(try Self.problems(passing.yaml).isEmpty)
    }

    @Test(arguments: [
        ("model:\n  A:\n    fields: {}\n", "$: unknown key 'model'"),
        ("models:\n  A:\n    sharable: true\n    fields: {}\n", "$.models.A: unknown key 'sharable'"),
        ("models:\n  A:\n    fields:\n      t: { type: string, optinal: true }\n", "unknown key 'optinal'"),
        ("models:\n  A:\n    scopes: [public]\n    catalog: { desiredKey: auto }\n    fields: {}\n", "$.models.A.catalog: unknown key 'desiredKey'"),
        ("models:\n  A:\n    fields:\n      t: strng\n", "$.models.A.fields.t"),
        ("models:\n  A:\n    fields:\n      t: Person\n", "$.models.A.fields.t"),
        ("models:\n  A:\n    fields:\n      t: { type: list }\n", "'of' is required"),
        ("models:\n  A:\n    scopes: [privat]\n    fields: {}\n", "$.models.A.scopes[0]"),
        ("models:\n  A:\n    fields:\n      1t: string\n", "$.models.A.fields.1t (name)"),
        ("version: 2\nmodels: {}\n", "$.version: must be"),
    ])
    func flagsMistakes(_ mistake: (yaml: String, problem: String)) throws {
        let problems = try Self.problems(mistake.yaml)
        #expect(problems.contains { $0.contains(mistake.problem) }, "\(problems)")
    }

    @Test func flagsEveryMisspeltKeyTheValidatorFlags() throws {
        for rule in failingCases where rule.code == .unknownKey {
            #expect(try !Self.problems(rule.yaml).isEmpty, "\(rule.yaml)")
        }
    }

    @Test func namePatternsAgreeWithTheNamingRules() {
        let names = ["Note", "note", "_note", "N1", "1N", "no-te", "no te", "né", "", "a_b_2"]
        for name in names {
            let matchesCloudKit = name.range(of: CloudKitNaming.namePattern, options: .regularExpression) != nil
            #expect(matchesCloudKit == (CloudKitNaming.problem(with: name) == nil), "\(name)")
            let matchesSwift = name.range(of: SwiftNaming.typeNamePattern, options: .regularExpression) != nil
            #expect(matchesSwift == (SwiftNaming.typeNameProblem(name) == nil), "\(name)")
        }
    }
}
