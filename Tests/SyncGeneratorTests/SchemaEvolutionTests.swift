import Testing
import SyncGenerator

/// One change between a baseline (`Old.yaml`) and a new schema (`New.yaml`), and exactly what the
/// comparison must say: diagnostics as `File:line:column CODE severity`, safe changes by message.
struct EvolutionCase: CustomTestStringConvertible, Sendable {
    var name: String
    var old: String
    var new: String
    var expected: [String]
    var safe: [String]

    init(_ name: String, old: String, new: String, expected: [String] = [], safe: [String] = []) {
        self.name = name
        self.old = old
        self.new = new
        self.expected = expected
        self.safe = safe
    }

    var testDescription: String { name }

    /// The codes this case expects, for the coverage check of every diagnostic code.
    var codes: [DiagnosticCode] {
        expected.compactMap { line in DiagnosticCode.allCases.first { line.contains($0.rawValue) } }
    }
}

/// A one-model schema: `Note` on line 2, its extra keys from line 3, its fields after `fields:`.
private func note(_ fields: String, keys: String = "") -> String {
    "models:\n  Note:\n" + (keys.isEmpty ? "" : keys + "\n") + "    fields:\n" + fields + "\n"
}

private let baseFields = "      title: string\n      size: int"

let evolutionCases: [EvolutionCase] = [
    // Breaking changes.
    EvolutionCase(
        "a model moved to another zone",
        old: note("      title: string"),
        new: "models:\n  Note:\n    zone: Personal\n    fields:\n      title: string\n",
        expected: ["New.yaml:2:3 SG1511 error", "Old.yaml:2:3 SG1511 note"]),
    EvolutionCase(
        "a model removed",
        old: note("      title: string") + "  Tag:\n    fields:\n      name: string\n",
        new: note("      title: string"),
        expected: ["Old.yaml:5:3 SG1501 error"]),
    EvolutionCase(
        "a model renamed without its record type: remove + add",
        old: note("      title: string") + "  Tag:\n    fields:\n      name: string\n",
        new: note("      title: string") + "  Label:\n    fields:\n      name: string\n",
        expected: ["Old.yaml:5:3 SG1501 error"],
        safe: ["record type 'Label' added (model 'Label')"]),
    EvolutionCase(
        "a field removed",
        old: note(baseFields), new: note("      title: string"),
        expected: ["Old.yaml:5:7 SG1502 error", "New.yaml:2:3 SG1502 note"]),
    EvolutionCase(
        "a field turned local-only",
        old: note(baseFields), new: note("      title: string\n      size: { type: int, localOnly: true }"),
        expected: ["Old.yaml:5:7 SG1502 error", "New.yaml:2:3 SG1502 note"]),
    EvolutionCase(
        "an asset removed takes its four fields",
        old: note("      title: string\n      cover: asset"), new: note("      title: string"),
        expected: [
            "Old.yaml:5:7 SG1502 error", "New.yaml:2:3 SG1502 note",
            "Old.yaml:5:7 SG1502 error", "New.yaml:2:3 SG1502 note",
            "Old.yaml:5:7 SG1502 error", "New.yaml:2:3 SG1502 note",
            "Old.yaml:5:7 SG1502 error", "New.yaml:2:3 SG1502 note",
        ]),
    EvolutionCase(
        "a field's type changed",
        old: note(baseFields), new: note("      title: string\n      size: string"),
        expected: ["New.yaml:5:7 SG1503 error", "Old.yaml:5:7 SG1503 note"]),
    EvolutionCase(
        "a list's element type changed",
        old: note("      tags: { type: list, of: string, merge: union }"), new: note("      tags: { type: list, of: int, merge: union }"),
        expected: ["New.yaml:4:7 SG1503 error", "Old.yaml:4:7 SG1503 note"]),
    EvolutionCase(
        "a reference's target changed",
        old: note("      owner: { type: reference, to: Person }") + "  Person:\n    fields: {}\n  Team:\n    fields: {}\n",
        new: note("      owner: { type: reference, to: Team }") + "  Person:\n    fields: {}\n  Team:\n    fields: {}\n",
        expected: ["New.yaml:4:7 SG1503 error", "Old.yaml:4:7 SG1503 note"]),
    EvolutionCase(
        "a model moved from private to public",
        old: note(baseFields), new: note(baseFields, keys: "    scopes: [public]"),
        expected: ["New.yaml:2:3 SG1504 error", "Old.yaml:2:3 SG1504 note"]),
    EvolutionCase(
        "a model moved from public to private and shared",
        old: note(baseFields, keys: "    scopes: [public]"), new: note(baseFields, keys: "    scopes: [private, shared]"),
        expected: ["New.yaml:2:3 SG1504 error", "Old.yaml:2:3 SG1504 note"]),
    EvolutionCase(
        "a field turned encrypted",
        old: note(baseFields), new: note("      title: { type: string, encrypted: true }\n      size: int"),
        expected: ["New.yaml:4:7 SG1505 error", "Old.yaml:4:7 SG1505 note"]),
    EvolutionCase(
        "a field turned unencrypted",
        old: note("      title: { type: string, encrypted: true }\n      size: int"), new: note(baseFields),
        expected: ["New.yaml:4:7 SG1505 error", "Old.yaml:4:7 SG1505 note"]),
    EvolutionCase(
        "a required field added: older records lack it",
        old: note(baseFields), new: note(baseFields + "\n      count: int"),
        expected: ["New.yaml:6:7 SG1506 warning"]),
    EvolutionCase(
        "an enum case renamed: records and older versions hold the old name",
        old: note("      title: string\n      status: { type: enum, cases: [todo, doing, done] }"),
        new: note("      title: string\n      status: { type: enum, cases: [todo, active, done] }"),
        expected: ["New.yaml:5:7 SG1508 error", "Old.yaml:5:7 SG1508 note"],
        safe: ["case 'active' added to 'Note.status': older app versions keep it as 'unknown'"]),
    EvolutionCase(
        "a string field now read as a url: strings written before may be no URL",
        old: note("      title: string\n      address: string"), new: note("      title: string\n      address: url"),
        expected: ["New.yaml:5:7 SG1509 warning", "Old.yaml:5:7 SG1509 note"]),
    EvolutionCase(
        "an int field now read as a bool: a count other than 0 and 1 goes back as 1",
        old: note("      title: string\n      count: int"), new: note("      title: string\n      count: bool"),
        expected: ["New.yaml:5:7 SG1509 warning", "Old.yaml:5:7 SG1509 note"]),
    EvolutionCase(
        "a string field now an enum, a bool now an int: every value written before reads",
        old: note("      title: string\n      state: string\n      flag: bool"),
        new: note("      title: string\n      state: { type: enum, cases: [on] }\n      flag: int"),
        safe: ["field 'Note.flag' changed from bool to int, both INT64 in CloudKit", "field 'Note.state' changed from string to enum, both STRING in CloudKit"]),
    // An asset field's record keys come from its place among the model's asset fields.
    EvolutionCase(
        "asset fields reordered: each would read the other's files",
        old: note("      title: string\n      cover: asset\n      thumbnail: asset"),
        new: note("      title: string\n      thumbnail: asset\n      cover: asset"),
        expected: ["New.yaml:5:7 SG1510 error", "Old.yaml:6:7 SG1510 note", "New.yaml:6:7 SG1510 error", "Old.yaml:5:7 SG1510 note"]),
    EvolutionCase(
        "an asset field added before the first: it would read the first's files",
        old: note("      title: string\n      cover: asset"),
        new: note("      title: string\n      thumbnail: asset\n      cover: asset"),
        expected: ["New.yaml:5:7 SG1510 error", "Old.yaml:5:7 SG1510 note", "New.yaml:6:7 SG1510 error", "Old.yaml:5:7 SG1510 note"]),
    EvolutionCase(
        "an asset field added after the others",
        old: note("      title: string\n      cover: asset"),
        new: note("      title: string\n      cover: asset\n      thumbnail: asset"),
        safe: [
            "field 'thumbnailAssetData' added to 'Note'", "field 'thumbnailAssetDigest' added to 'Note'",
            "field 'thumbnailAssetSize' added to 'Note'", "field 'thumbnailAssetSuffix' added to 'Note'",
        ]),
    EvolutionCase(
        "an enum case added",
        old: note("      title: string\n      status: { type: enum, cases: [todo, done] }"),
        new: note("      title: string\n      status: { type: enum, cases: [todo, done, archived] }"),
        safe: ["case 'archived' added to 'Note.status': older app versions keep it as 'unknown'"]),
    // Safe changes.
    // Natural keys and merges live in the apps: a key added asks for a thought, the rest is safe.
    EvolutionCase(
        "a natural key added",
        old: note(baseFields), new: note(baseFields, keys: "    unique: [title]"),
        expected: ["New.yaml:2:3 SG1507 warning"]),
    EvolutionCase(
        "a natural key removed, merge policies changed",
        old: note("      title: string\n      size: { type: int, merge: max }", keys: "    unique: [title]"),
        new: note("      title: string\n      size: int", keys: "    merge: serverWins"),
        safe: [
            "natural key [title] of 'Note' removed", "merge policy of 'Note' changed from the configuration's to serverWins",
            "merge policy of 'Note.size' changed from max to the model's",
        ]),
    EvolutionCase(
        "a number made a counter",
        old: note("      title: string\n      stock: int"), new: note("      title: string\n      stock: { type: int, merge: counter }"),
        safe: ["merge policy of 'Note.stock' changed from the model's to counter"]),
    EvolutionCase("nothing changed", old: note(baseFields), new: note(baseFields)),
    EvolutionCase(
        "a model added",
        old: note(baseFields), new: note(baseFields) + "  Tag:\n    fields:\n      name: string\n",
        safe: ["record type 'Tag' added (model 'Tag')"]),
    EvolutionCase(
        "an optional field added",
        old: note(baseFields), new: note(baseFields + "\n      color: { type: string, optional: true }"),
        safe: ["field 'color' added to 'Note'"]),
    EvolutionCase(
        "a field with a default added",
        old: note(baseFields), new: note(baseFields + "\n      done: { type: bool, default: false }"),
        safe: ["field 'done' added to 'Note'"]),
    EvolutionCase(
        "an asset added: its four fields",
        old: note(baseFields), new: note(baseFields + "\n      cover: asset"),
        safe: [
            "field 'assetData' added to 'Note'", "field 'assetDigest' added to 'Note'", "field 'assetSize' added to 'Note'",
            "field 'assetSuffix' added to 'Note'",
        ]),
    EvolutionCase(
        "a local-only field added: nothing in CloudKit changes",
        old: note(baseFields), new: note(baseFields + "\n      draft: { type: string, localOnly: true }")),
    EvolutionCase(
        "an index added",
        old: note(baseFields), new: note("      title: { type: string, index: [queryable, searchable] }\n      size: int"),
        safe: ["index QUERYABLE added to 'Note.title'", "index SEARCHABLE added to 'Note.title'"]),
    EvolutionCase(
        "an index removed",
        old: note("      title: { type: string, index: [sortable] }\n      size: int"), new: note(baseFields),
        safe: ["index SORTABLE removed from 'Note.title'"]),
    EvolutionCase(
        "a private model made shareable",
        old: note(baseFields), new: note(baseFields, keys: "    scopes: [private, shared]\n    shareable: true"),
        safe: ["record type 'Note' now has scopes [private, shared]"]),
    EvolutionCase(
        "a bool widened to an int: both INT64",
        old: note("      flag: bool"), new: note("      flag: int"),
        safe: ["field 'Note.flag' changed from bool to int, both INT64 in CloudKit"]),
    EvolutionCase(
        "a model renamed keeping its record type",
        old: note(baseFields), new: "models:\n  Memo:\n    recordType: Note\n    fields:\n" + baseFields + "\n"),
    EvolutionCase(
        "fields renamed keeping their record keys (a key field, an asset after another)",
        old: note("      title: string\n      cover: asset\n      sketch: asset", keys: "    unique: [[title]]"),
        new: note("      heading: { type: string, recordKey: title }\n      cover: asset\n      diagram: { type: asset, recordKey: sketch }", keys: "    unique: [[heading]]")),
    EvolutionCase(
        "a field renamed without its record key: remove + add",
        old: note(baseFields), new: note("      heading: string\n      size: int"),
        expected: ["New.yaml:4:7 SG1506 warning", "Old.yaml:4:7 SG1502 error", "New.yaml:2:3 SG1502 note"]),
    EvolutionCase(
        "a catalog made governed: the lifecycle fields are added",
        old: note(baseFields, keys: "    scopes: [public]"),
        new: note(baseFields, keys: "    scopes: [public]\n    catalog: { governed: true }"),
        safe: [
            "field 'publicationState' added to 'Note'", "field 'publicationVersion' added to 'Note'",
            "field 'publishedAt' added to 'Note'", "field 'reviewNote' added to 'Note'",
            "field 'reviewState' added to 'Note'", "field 'reviewedVersion' added to 'Note'",
        ]),
]

@Suite("Schema evolution: breaking and safe changes against a baseline")
struct SchemaEvolutionTests {
    static func check(old: String, new: String) -> BaselineCheck {
        BaselineCheck(
            baseline: [SchemaSource(path: "Old.yaml", text: old)],
            new: [SchemaSource(path: "New.yaml", text: new)])
    }

    @Test(arguments: evolutionCases)
    func changeIsClassified(_ change: EvolutionCase) throws {
        let check = Self.check(old: change.old, new: change.new)
        #expect(check.new.diagnostics.isEmpty && check.baseline.diagnostics.isEmpty, "the case's schemas must be valid")
        let diff = try #require(check.diff)
        let placed = diff.diagnostics.flatMap { diagnostic in
            ["\(diagnostic.location.file):\(diagnostic.location.line):\(diagnostic.location.column) \(diagnostic.code.rawValue) \(diagnostic.severity)"]
                + diagnostic.notes.map { "\($0.location.file):\($0.location.line):\($0.location.column) \(diagnostic.code.rawValue) note" }
        }
        #expect(placed == change.expected, "\(DiagnosticTextRenderer.render(diff.diagnostics))")
        #expect(diff.safeChanges.map(\.message).sorted() == change.safe.sorted())
        #expect(check.breakingChangeCount == change.expected.filter { $0.hasSuffix("error") }.count)
    }

    @Test func aRenameGetsAHintToKeepTheRecordType() throws {
        let check = Self.check(
            old: note("      title: string") + "  Tag:\n    fields:\n      name: string\n",
            new: note("      title: string") + "  Label:\n    fields:\n      name: string\n      color: { type: string, optional: true }\n")
        let removal = try #require(check.diff?.diagnostics.first)
        #expect(removal.message.contains("if 'Label' is 'Tag' renamed, give it 'recordType: Tag'"))
    }

    /// A field removed and one of its type added: the message says how to keep the deployed key.
    /// A field of another type is no candidate.
    @Test func aFieldRenameGetsAHintToKeepTheRecordKey() throws {
        let check = Self.check(old: note(baseFields), new: note("      count: int\n      heading: { type: string, optional: true }\n      size: int"))
        let removal = try #require(check.diff?.diagnostics.first { $0.code == .fieldRemoved })
        #expect(removal.message.contains("if 'heading' is 'title' renamed, give it 'recordKey: title' to keep the deployed field"), "\(removal.message)")
        let other = Self.check(old: note(baseFields), new: note("      heading: int\n      size: int"))
        #expect(other.diff?.diagnostics.first { $0.code == .fieldRemoved }?.message.contains("renamed") == false)
    }

    /// A removed enum case says what to do instead: keep it, and stop writing it. Breaking it
    /// (issue 57): the message says only what goes wrong.
    @Test func aRemovedCaseSaysToKeepIt() throws {
        let check = Self.check(
            old: note("      status: { type: enum, cases: [open, done, archived] }"),
            new: note("      status: { type: enum, cases: [open, done] }"))
        let removal = try #require(check.diff?.diagnostics.first)
        #expect(removal.code == .enumCaseRemoved)
        #expect(removal.message.hasSuffix("keep the case in 'cases:' and stop writing it in the app instead"), "\(removal.message)")
    }

    @Test func aRemovedModelWithoutFieldsSuggestsNoRename() throws {
        let check = Self.check(
            old: note("      title: string") + "  Tag:\n    fields: {}\n",
            new: note("      title: string") + "  Label:\n    fields:\n      name: string\n")
        let removal = try #require(check.diff?.diagnostics.first)
        #expect(removal.code == .recordTypeRemoved)
        #expect(!removal.message.contains("renamed"))
    }

    @Test func messagesSpeakTheSchemaLanguage() throws {
        let check = Self.check(old: note(baseFields), new: note("      title: string\n      size: { type: list, of: int }"))
        let change = try #require(check.diff?.diagnostics.first)
        #expect(change.message == "field 'size' of record type 'Note' changed from int (INT64) to list of int (LIST<INT64>); deployed records keep the old type")
    }

    /// Descriptions are for people: adding, changing or removing one changes nothing in CloudKit
    /// and nothing the baseline check reports. Breaking it (the diff comparing fields whole):
    /// a safe change, or worse, for every reworded field.
    @Test func descriptionsChangeNothingDeployed() {
        let check = Self.check(
            old: "models:\n  Note:\n    description: Old words.\n    fields:\n      title: { type: string, description: A title. }\n      state: { type: enum, cases: [a, { b: Bee. }] }\n",
            new: "models:\n  Note:\n    fields:\n      title: { type: string, description: The title. }\n      state: { type: enum, cases: [{ a: Ay. }, b] }\n")
        #expect(check.new.diagnostics.isEmpty && check.baseline.diagnostics.isEmpty)
        #expect(check.diagnostics.isEmpty)
        #expect(check.safeChanges.isEmpty)
    }

    /// A field given up stays in CloudKit: deprecating one changes nothing deployed. Breaking it
    /// (a deprecated field left out of the CloudKit view, as a removed one): a breaking change.
    @Test func aFieldGivenUpChangesNothingDeployed() {
        let check = Self.check(
            old: "models:\n  Note:\n    fields:\n      title: string\n      summary: string\n",
            new: "models:\n  Note:\n    fields:\n      title: string\n      summary: { type: string, deprecated: Use title instead. }\n")
        #expect(check.diagnostics.isEmpty && check.safeChanges.isEmpty)
    }

    @Test func modelsMovingBetweenFilesChangeNothing() {
        let check = BaselineCheck(
            baseline: [SchemaSource(path: "All.yaml", text: note(baseFields) + "  Tag:\n    fields: {}\n")],
            new: [
                SchemaSource(path: "Notes.yaml", text: note(baseFields)),
                SchemaSource(path: "Tags.yaml", text: "models:\n  Tag:\n    fields: {}\n"),
            ])
        #expect(check.diagnostics.isEmpty)
        #expect(check.safeChanges.isEmpty)
    }

    @Test func anEmptyBaselineMakesEveryModelNew() {
        let check = BaselineCheck(baseline: [], new: [SchemaSource(path: "New.yaml", text: note(baseFields))])
        #expect(check.diagnostics.isEmpty)
        #expect(check.safeChanges.map(\.message) == ["record type 'Note' added (model 'Note')"])
    }

    @Test func anInvalidSchemaOnEitherSideIsReportedAndNothingCompared() {
        let badBaseline = Self.check(old: note("      title: strng"), new: note(baseFields))
        #expect(badBaseline.diff == nil)
        #expect(badBaseline.diagnostics.map { "\($0.location.file) \($0.code.rawValue)" } == ["Old.yaml SG0602"])

        let badNew = Self.check(old: note(baseFields), new: note("      title: strng"))
        #expect(badNew.diff == nil)
        #expect(badNew.diagnostics.map { "\($0.location.file) \($0.code.rawValue)" } == ["New.yaml SG0602"])
    }

    @Test func baselineWarningsAreNotRepeated() {
        let check = Self.check(old: "models:\n  note:\n    fields: {}\n", new: "models:\n  note:\n    fields: {}\n")
        #expect(check.diagnostics.map(\.location.file) == ["New.yaml"])
    }

    @Test func jsonHoldsDiagnosticsAndSafeChanges() {
        let check = Self.check(old: note(baseFields), new: note("      title: string\n      color: { type: string, optional: true }"))
        #expect(BaselineCheckJSONRenderer.render(check) == """
            {
              "diagnostics": [
                {"file": "Old.yaml", "line": 5, "column": 7, "severity": "error", "code": "SG1502", "message": "field 'size' of record type 'Note' is gone; CloudKit's production schema cannot lose it, and older app versions still write it", "documentation": "docs/Diagnostics.md#sg1502"},
                {"file": "New.yaml", "line": 2, "column": 3, "severity": "note", "code": "SG1502", "message": "record type 'Note' is declared here now", "documentation": "docs/Diagnostics.md#sg1502"}
              ],
              "safeChanges": [
                {"file": "New.yaml", "line": 5, "column": 7, "message": "field 'color' added to 'Note'"}
              ]
            }

            """)
    }
}
