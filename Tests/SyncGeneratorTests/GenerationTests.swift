import Foundation
import Testing
import SyncGenerator

/// Generates one schema (one file, `Schema.yaml`) and returns the model file's text.
private func generated(_ yaml: String, access: CodeGenerator.AccessLevel = .internal) throws -> String {
    try generatedFiles(["Schema.yaml": yaml], access: access)[0].contents
}

private func generatedFiles(_ files: [String: String], access: CodeGenerator.AccessLevel = .internal) throws -> [GeneratedFile] {
    let result = validate(files)
    let schema = try #require(result.schema, "\(result.rendered)")
    let schemaFiles = files.keys.map { CodeGenerator.SchemaFile(path: $0, relativePath: $0) }
    return try CodeGenerator(accessLevel: access).generate(schema, files: schemaFiles)
}

/// Whether `text` holds `snippet` as whole lines, ignoring indentation.
private func contains(_ text: String, lines snippet: String) -> Bool {
    let normalize = { (text: String) in text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n") }
    return normalize(text).contains(normalize(snippet))
}

@Suite("Code generation: YAML in, Swift out, per construct")
struct GenerationTests {
    @Test func plainStructWithRecordNameOwnerAndDefaults() throws {
        let swift = try generated("models:\n  Note:\n    fields:\n      title: { type: string, default: \"Untitled\" }\n      count: int\n")
        #expect(contains(swift, lines: """
            struct Note: Swift.Sendable, Swift.Hashable {
            """))
        #expect(contains(swift, lines: """
            init(
                recordName: Swift.String = Foundation.UUID().uuidString,
                ownerName: Swift.String = SyncCore.SyncConstants.currentUserOwnerName,
                title: Swift.String = "Untitled",
                count: Swift.Int64 = 0
            ) {
            """))
        #expect(!swift.contains("public "))
    }

    /// The schema's words are the doc comments Quick Help and completion show: the model's above
    /// its struct (before syncgen's own line), a field's above its property and in the
    /// initializer's parameters, a case's above the case. Breaking it (a description parsed and
    /// dropped): these comments are missing.
    @Test func descriptionsAreTheDeclarationsDocComments() throws {
        let swift = try generated("""
            models:
              Item:
                description: |
                  Something to buy.

                  On a shared list.
                fields:
                  title: { type: string, description: "What to buy." }
                  secret: { type: string, encrypted: true, description: The PIN. }
                  size:
                    type: enum
                    cases:
                      - small
                      - large: The family pack.
            """)
        #expect(contains(swift, lines: """
            /// Something to buy.
            ///
            /// On a shared list.
            ///
            /// A record of type `Item` in [private], from Schema.yaml.
            struct Item: Swift.Sendable, Swift.Hashable {
            """))
        #expect(contains(swift, lines: """
            /// What to buy.
            var title: Swift.String
            /// The PIN.
            ///
            /// Stored encrypted in CloudKit.
            var secret: Swift.String
            """))
        #expect(contains(swift, lines: """
            /// `Item`, each field given or left to its default.
            ///
            /// - Parameters:
            ///   - title: What to buy.
            ///   - secret: The PIN.
            init(
            """))
        #expect(contains(swift, lines: """
            case small
            /// The family pack.
            case large
            """))
    }

    /// A field the schema gave up stays a stored property (in the field table, so its value is
    /// carried) with its empty value, out of the initializer, marked deprecated with the
    /// schema's message; the declarations that read every field are marked too, so generated
    /// code never warns (the GeneratedCoverage module, compiled with warnings as errors, holds
    /// such fields). Breaking it: a parameter the app must still pass, or a warning in generated code.
    @Test func aGivenUpFieldIsDeprecatedAndOutOfTheInitializer() throws {
        let swift = try generated("""
            models:
              Item:
                fields:
                  title: string
                  summary: { type: string, deprecated: Use title instead. }
                  rank: { type: int, deprecated: true }
            """)
        #expect(contains(swift, lines: """
            @available(*, deprecated, message: "Use title instead.")
            var summary: Swift.String = ""
            """))
        #expect(contains(swift, lines: """
            @available(*, deprecated, message: "given up in the schema; kept in the record for older app versions")
            var rank: Swift.Int64 = 0
            """))
        #expect(contains(swift, lines: """
            init(
                recordName: Swift.String = Foundation.UUID().uuidString,
                ownerName: Swift.String = SyncCore.SyncConstants.currentUserOwnerName,
                title: Swift.String = ""
            ) {
            """))
        #expect(contains(swift, lines: """
            @available(*, deprecated, message: "reads the fields the schema gave up, for the runtime")
            static let _syncFields = SyncCore.ModelFields<Self>(
            """))
        #expect(contains(swift, lines: """
            .field("summary", \\Self.summary),
            .field("rank", \\Self.rank),
            """))
    }

    /// A model's `zone` becomes its `zoneName`, which the runtime's one routing rule reads; a
    /// model without one declares none, and the protocol's default (the app's sync zone) holds.
    /// Breaking it (the key parsed, the declaration left out): the diary's records go to the
    /// sync zone, beside the household a zone share hands to everyone.
    @Test func aModelsZoneIsItsZoneName() throws {
        let swift = try generated("models:\n  Diary:\n    zone: Personal\n    fields:\n      text: string\n  Note:\n    fields:\n      title: string\n")
        #expect(swift.contains(#"static let zoneName: Swift.String? = "Personal""#))
        #expect(swift.components(separatedBy: "zoneName").count == 2, "only the diary declares one")
    }

    @Test func publicAccessMarksEveryDeclaration() throws {
        let swift = try generated("models:\n  Note:\n    fields:\n      title: string\n", access: .public)
        #expect(swift.contains("public struct Note"))
        #expect(swift.contains("    public var title: Swift.String"))
        #expect(swift.contains("    public static let _syncFields = SyncCore.ModelFields<Self>("))
        #expect(!swift.contains("init(emptyRecordNamed"))
    }

    @Test func keywordFieldNamesAreEscaped() throws {
        let swift = try generated("models:\n  A:\n    fields:\n      default: string\n      in: { type: bool, optional: true }\n")
        #expect(swift.contains("var `default`: Swift.String"))
        #expect(swift.contains("self.`default` = `default`"))
        #expect(swift.contains(".field(\"default\", \\Self.`default`),"))
        #expect(swift.contains(".field(\"in\", \\Self.`in`),"))
    }

    @Test func everyTypeMapsToItsSwiftType() throws {
        let swift = try generated("""
            models:
              A:
                fields:
                  s: string
                  i: int
                  d: double
                  b: bool
                  t: date
                  x: data
                  l: location
                  f: asset
                  r: { type: reference, to: A }
                  o: { type: reference, to: A, optional: true }
                  ls: { type: list, of: string }
                  lr: { type: list, of: reference, to: A, onDelete: deleteSelf }
            """)
        for line in [
            "var s: Swift.String", "var i: Swift.Int64", "var d: Swift.Double", "var b: Swift.Bool",
            "var t: Foundation.Date", "var x: Foundation.Data", "var l: SyncCore.SyncLocation",
            "var f: SyncCore.AssetReference?", "var r: SyncCore.RecordReference<A>",
            "var o: SyncCore.RecordReference<A>?", "var ls: [Swift.String]", "var lr: [SyncCore.RecordReference<A>]",
        ] {
            #expect(swift.contains(line), "missing \(line)")
        }
        // A required reference has no zero value: the initializer asks for it.
        #expect(swift.contains("        r: SyncCore.RecordReference<A>,\n"))
        #expect(swift.contains("empty: { recordName, ownerName in Self(recordName: recordName, ownerName: ownerName, r: SyncCore.RecordReference.unset) })"))
    }

    /// Breaking it (a subnormal double spelled as a decimal, which the compiler rounds and warns
    /// of) fails the line of `tiny`; the random schemas compile such defaults too.
    @Test func defaultLiteralsAreSpeltInSwift() throws {  // trap: T21.8
        let swift = try generated("""
            models:
              A:
                fields:
                  s: { type: string, default: "a \\"b\\" \\\\ \\n" }
                  d: { type: double, default: 2 }
                  t: { type: date, default: 1970-01-02 }
                  n: { type: date, default: now }
                  z: date
                  l: { type: list, of: int, default: [1, -2] }
                  tiny: { type: double, default: 4.9e-324 }
                  leap: { type: date, default: 2024-02-29T23:59:59.5+01:30 }
            """)
        #expect(swift.contains(#"s: Swift.String = "a \"b\" \\ \n","#))
        // A subnormal as a decimal literal is rounded, with a warning: its bits read back exactly.
        #expect(swift.contains("tiny: Swift.Double = Swift.Double(bitPattern: 0x1),"))
        #expect(swift.contains("leap: Foundation.Date = Foundation.Date(timeIntervalSince1970: 1709245799.5)\n"))
        #expect(swift.contains("d: Swift.Double = 2.0,"))
        #expect(swift.contains("t: Foundation.Date = Foundation.Date(timeIntervalSince1970: 86400.0),"))
        #expect(swift.contains("n: Foundation.Date = Foundation.Date(),"))
        #expect(swift.contains("z: Foundation.Date = Foundation.Date(timeIntervalSince1970: 0),"))
        #expect(swift.contains("l: [Swift.Int64] = [1, -2],"))
    }

    /// The field table is the whole bridge: each field once, with the options that decide where it
    /// travels. What the options do (a local-only field never uploaded nor pulled, a server-owned one
    /// pulled but never uploaded, an encrypted one in the encrypted set) is the runtime's
    /// `ModelFields`, tested through generated models in `GeneratedBridgeTests`.
    @Test func eachFieldIsStatedOnceWithTheOptionsThatRouteIt() throws {
        let swift = try generated("""
            models:
              A:
                fields:
                  plain: string
                  secret: { type: string, encrypted: true }
                  mine: { type: string, localOnly: true }
                  theirs: { type: int, serverOwned: true, optional: true }
            """)
        #expect(contains(swift, lines: """
            private static func fieldTable() -> [SyncCore.ModelField<Self>] {
            [
                .field("plain", \\Self.plain),
                .field("secret", \\Self.secret, .encrypted),
                .field("mine", \\Self.mine, .localOnly),
                .field("theirs", \\Self.theirs, .serverOwned),
            ]
            """))
        // No direction is generated apart from the table, nor the empty record or the tombstone:
        // nothing can drift from it.
        for member in ["fieldDescriptors", "encodeRemoteFields", "applyRemoteFields", "encodeStoredFields", "applyStoredFields", "emptyRecordNamed", "tombstoneKeyPaths"] {
            #expect(!swift.contains(member), "generated \(member) beside the table")
        }
    }

    @Test func parentAssetAndLifecycleAreRowsOfTheTableToo() throws {
        let swift = try generated("""
            models:
              L:
                fields: {}
              A:
                parent: L
                fields:
                  file: asset
              P:
                scopes: [public]
                catalog: { governed: true }
                fields:
                  title: string
            """)
        #expect(contains(swift, lines: """
            private static func fieldTable() -> [SyncCore.ModelField<Self>] {
            [
                .parent(\\Self.parent),
                .asset("file", \\Self.file),
            ]
            """))
        #expect(contains(swift, lines: """
            private static func fieldTable() -> [SyncCore.ModelField<Self>] {
            [
                .field("title", \\Self.title),
                .publicationLifecycle(\\Self.publicationLifecycle),
            ]
            """))
        #expect(contains(swift, lines: """
            static let _syncFields = SyncCore.ModelFields<Self>(
                [],
            """))
    }

    /// The runtime reads keys and policies from generic code (`Model.uniqueKeys`): they are the
    /// protocol's requirements, declared by the concrete type, each field's merge in its row.
    @Test func naturalKeysAndMergePoliciesAreDeclaredOnTheConcreteType() throws {
        let swift = try generated("""
            models:
              List:
                unique: [[title], [code, owner]]
                merge: serverWins
                fields:
                  title: string
                  code: int
                  owner: { type: reference, to: List, optional: true }
                  tags: { type: list, of: string, merge: union }
                  visits: { type: int, index: [queryable], merge: max }
                  motto: { type: string, merge: custom }
            """)
        let conformance = try #require(swift.range(of: "extension List: SyncCore.SyncModel {"))
        let keys = try #require(swift.range(of: #"static let uniqueKeys: [[Swift.String]] = [["title"], ["code", "owner"]]"#))
        #expect(conformance.upperBound < keys.lowerBound)
        #expect(swift.contains("static let conflictPolicy: SyncCore.ConflictPolicy? = .serverWins"))
        #expect(swift.contains(#".field("tags", \Self.tags, merge: .union),"#))
        #expect(swift.contains(#".field("visits", \Self.visits, .indexed, merge: .max),"#))
        #expect(swift.contains(#".field("motto", \Self.motto, merge: .custom),"#))
        #expect(swift.contains("extension List: SyncCore.CustomMergingModel {}"))
        // A model that states neither declares neither: the protocol's defaults (none, nil) hold.
        let plain = try generated("models:\n  Note:\n    fields:\n      title: string\n")
        #expect(!plain.contains("uniqueKeys") && !plain.contains("conflictPolicy") && !plain.contains("CustomMergingModel"))
    }

    @Test func referencesCarryTheSchemasDeleteAction() throws {  // trap: T3.7
        let swift = try generated("models:\n  A:\n    fields:\n      a: { type: reference, to: A, onDelete: deleteSelf }\n      b: { type: reference, to: A, optional: true }\n")
        #expect(swift.contains(".reference(\"a\", \\Self.a, onDelete: .deleteSelf),"))
        #expect(swift.contains(".reference(\"b\", \\Self.b, onDelete: .none),"))
    }

    @Test func parentIsTheRecordsParentNotAReference() throws {  // trap: T3.6
        let swift = try generated("models:\n  L:\n    fields: {}\n  I:\n    parent: L\n    fields: {}\n")
        #expect(swift.contains("var parent: SyncCore.RecordReference<L>?"))
        #expect(swift.contains("static let parentRecordType: Swift.String? = \"L\""))
        #expect(swift.contains("var parentRecordName: Swift.String? { parent?.recordName }"))
        // The parent's own row, never a reference field: it travels as the record's parent.
        #expect(swift.contains(".parent(\\Self.parent),"))
        #expect(!swift.contains(".reference(\"parent\""))
    }

    @Test func tombstoneKeyPathsAreDeclaredOnTheConcreteType() throws {  // trap: T6.1
        let swift = try generated("models:\n  Note:\n    fields: {}\n")
        // In `Note`'s own conformance, where `Self` is `Note`: never in a protocol extension.
        let conformance = try #require(swift.range(of: "extension Note: SyncCore.SyncModel {"))
        let tombstones = try #require(swift.range(of: "tombstone: [SyncCore.TombstoneKeyPath"))
        #expect(conformance.upperBound < tombstones.lowerBound && !swift[conformance.upperBound..<tombstones.lowerBound].contains("\n}\n"))
        #expect(!swift.contains("extension SyncCore.SyncModel"))
        #expect(swift.contains(#"tombstone: [SyncCore.TombstoneKeyPath("recordName", \Self.recordName), SyncCore.TombstoneKeyPath("ownerName", \Self.ownerName)],"#))
    }

    @Test func scopesAndSharing() throws {
        let swift = try generated("models:\n  L:\n    scopes: [private, shared]\n    shareable: true\n    fields:\n      name: string\n")
        #expect(swift.contains("static let syncScopes: Swift.Set<SyncCore.DatabaseScope> = [.private, .shared]"))
        #expect(swift.contains("extension L: SyncCore.ShareableModel {"))
        #expect(swift.contains("var shareTitle: Swift.String { self.name }"))
    }

    @Test func catalogDeclaresDesiredKeysAndInitialStateAsRequirements() throws {  // trap: T11.1, T12.4, T12.5
        let swift = try generated("""
            models:
              P:
                scopes: [public]
                catalog: { initialState: delisted, governed: true }
                fields:
                  title: string
                  cover: asset
                  mine: { type: bool, localOnly: true }
            """)
        #expect(contains(swift, lines: """
            extension P: SyncCore.PublicationGovernedModel {
                /// Asset contents are never fetched by catalog queries: readers download them on demand.
                static let catalogDesiredKeys: [Swift.String] = [
                    "title",
                    "assetSuffix",
                    "assetSize",
            """))
        #expect(!swift.contains("\"assetData\""))
        #expect(swift.contains("static let initialPublicationState: SyncCore.PublicationState = .delisted"))
        #expect(swift.contains("publicationLifecycle: SyncCore.PublicationLifecycle = SyncCore.PublicationLifecycle(state: .delisted)"))
        #expect(swift.contains(".publicationLifecycle(\\Self.publicationLifecycle),"))
    }

    @Test func draftProjectsExactlyTheProjectionsFields() throws {  // trap: T10.4
        let swift = try generated("""
            models:
              D:
                publishAs: P
                fields:
                  title: string
                  note: { type: string, optional: true }
                  secret: string
              P:
                scopes: [public]
                fields:
                  title: string
                  note: { type: string, optional: true }
                  views: { type: int, serverOwned: true }
            """)
        #expect(contains(swift, lines: """
            extension D: SyncCore.PublishableModel {
                typealias Projection = P

                /// Copies the fields `P` declares; a nil value keeps the published one.
                func project(onto projection: inout P) {
                    projection.title = self.title
                    if let value = self.note { projection.note = value }
                }
            }
            """))
    }

    @Test func schemaListNamesEveryModelAndLocksTheRuntimeVersion() throws {  // trap: T1.1
        let files = try generatedFiles(["b.yaml": "models:\n  B:\n    fields: {}\n", "a.yaml": "models:\n  A:\n    fields: {}\n"])
        #expect(files.map(\.name) == ["a.syncgen.swift", "b.syncgen.swift", "SyncSchema.syncgen.swift"])
        let list = files[2].contents
        #expect(contains(list, lines: """
            enum SyncSchema: SyncCore.SyncSchemaDefinition {
                static var models: [any SyncCore.SyncModel.Type] {
                    [
                        A.self,
                        B.self,
                    ]
                }

                /// The CloudKit indexes the schema declares (the `.ckdb` export's), by record type and field.
                static let deployedIndexes: [Swift.String: [Swift.String: Swift.Set<Swift.String>]] = [:]
            }
            """))
        #expect(list.contains("extension SyncCore.SyncgenRuntimeAPIVersion1 {}"))
    }

    /// The schema's indexes, as the `.ckdb` export declares them, in the schema list: what a
    /// LocalCloud is told the deployed schema holds, `___recordID` of a public type included (a
    /// query with no condition needs it). Breaking it (the system field left out): LocalCloud
    /// refuses every catalog refresh of a schema deployed from this list.
    @Test func theSchemaListSaysItsIndexes() throws {
        let files = try generatedFiles(["a.yaml": "models:\n  A:\n    scopes: [public]\n    fields:\n      title: { type: string, index: [searchable, queryable] }\n      n: int\n"])
        #expect(files[1].contents.contains(#"    "A": ["___recordID": ["QUERYABLE"], "title": ["QUERYABLE", "SEARCHABLE"]],"#), "\(files[1].contents)")
    }

    @Test func headerNamesTheSourceAndForbidsEditing() throws {
        let files = try generatedFiles(["Lists/Items.yaml": "models:\n  A:\n    fields: {}\n"])
        #expect(files[0].name == "Lists+Items.syncgen.swift")
        #expect(files[0].contents.hasPrefix("// Generated by syncgen \(SyncgenVersion.current) from Lists/Items.yaml.\n// Do not edit: change the schema and build again.\n"))
    }

    @Test func anEmptySchemaFileStillGetsItsFile() throws {
        let files = try generatedFiles(["Empty.yaml": "# nothing yet\n", "A.yaml": "models:\n  A:\n    fields: {}\n"])
        #expect(files.map(\.name) == ["A.syncgen.swift", "Empty.syncgen.swift", "SyncSchema.syncgen.swift"])
        #expect(files[1].contents.hasSuffix("import Foundation\n@_spi(SyncgenGenerated) import SyncCore\n"))
    }

    @Test func outputIsDeterministic() throws {
        let files = ["b.yaml": "models:\n  B:\n    fields: { x: string }\n", "a.yaml": "models:\n  A:\n    fields: { y: int }\n"]
        let first = try generatedFiles(files)
        let again = try generatedFiles(files)
        #expect(first == again)
    }

    @Test(arguments: [
        ("Notes.yaml", "Notes.syncgen.swift"),
        ("Notes.yml", "Notes.syncgen.swift"),
        ("Lists/Items.yaml", "Lists+Items.syncgen.swift"),
        ("a/b/c.d.yaml", "a+b+c.d.syncgen.swift"),
        ("NoExtension", "NoExtension.syncgen.swift"),
    ])
    func fileNamingRule(_ input: String, _ output: String) {
        #expect(GeneratedFileNaming.outputName(forSchemaAt: input) == output)
    }

    @Test func clashingOutputNamesAreRefused() {
        guard case .failure(let clash) = GeneratedFileNaming.outputNames(forSchemasAt: ["Notes.yaml", "notes.yml"]) else {
            Issue.record("expected a clash")
            return
        }
        #expect(clash.description == "schema files 'Notes.yaml' and 'notes.yml' would both generate 'notes.syncgen.swift'; rename one of them")
        guard case .failure(let listClash) = GeneratedFileNaming.outputNames(forSchemasAt: ["SyncSchema.yaml"]) else {
            Issue.record("expected a clash with the schema list")
            return
        }
        #expect(listClash.description.contains("the name of the generated list of models"))
    }
}

@Suite("The build plugin names files by the generator's rule")
struct PluginNamingTests {
    @Test func thePluginCompilesTheGeneratorsOwnNamingRule() throws {
        // The plugin cannot import a library: it compiles the same file, through a link.
        let generator = repositoryRoot.appendingPathComponent("Sources/SyncGenerator/Generation/GeneratedFileNaming.swift")
        let plugin = repositoryRoot.appendingPathComponent("Plugins/SyncGenPlugin/GeneratedFileNaming.swift")
        #expect(try String(contentsOf: plugin, encoding: .utf8) == String(contentsOf: generator, encoding: .utf8))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: plugin.path) == "../../Sources/SyncGenerator/Generation/GeneratedFileNaming.swift")
    }
}
