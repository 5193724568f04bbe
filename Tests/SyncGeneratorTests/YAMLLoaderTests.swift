import Foundation
import Testing
import SyncGenerator

@Suite("YAML loader: libyaml into located nodes")
struct YAMLLoaderTests {
    private func load(_ text: String) -> YAMLLoader.Result {
        YAMLLoader().load(Array(text.utf8), file: "f.yaml")
    }

    @Test func keysAndValuesCarryLineAndColumn() throws {
        let root = try #require(load("models:\n  Note:\n    fields: { title: string }\n").root)
        let models = try #require(root.mapping?.first)
        #expect(models.keyLocation == SourceLocation(file: "f.yaml", line: 1, column: 1))
        let note = try #require(models.value.mapping?.first)
        #expect(note.keyLocation.line == 2 && note.keyLocation.column == 3)
        let title = try #require(note.value.mapping?.first?.value.mapping?.first)
        #expect(title.keyLocation.line == 3 && title.keyLocation.column == 15)
        #expect(title.value.location.line == 3 && title.value.location.column == 22)
    }

    /// A location keeps its file as a number (no reference counting per copy): the name read back,
    /// equality and order must still be the name's. Numbered in first-seen order, "b" before "a"
    /// here, so an order by number would put b.yaml first.
    @Test func locationsKeepTheirFilesNameAndOrderByIt() {
        let b = SourceLocation(file: "Schema/b-a-long-path-beyond-fifteen-bytes.yaml", line: 1, column: 1)
        let a = SourceLocation(file: "Schema/a-a-long-path-beyond-fifteen-bytes.yaml", line: 9, column: 9)
        #expect(a.file == "Schema/a-a-long-path-beyond-fifteen-bytes.yaml")
        #expect(a < b && !(b < a))
        var moved = b
        moved.file = a.file
        #expect(moved != b && moved.file == a.file && moved < a)
        #expect(moved == SourceLocation(file: a.file, line: 1, column: 1))
        #expect(Set([moved, SourceLocation(file: a.file, line: 1, column: 1)]).count == 1)
        #expect(b.description == "Schema/b-a-long-path-beyond-fifteen-bytes.yaml:1:1")
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let root = try #require(load("é😀: x\n").root)
        let entry = try #require(root.mapping?.first)
        #expect(entry.value.location.column == 5)
    }

    @Test func scalarStylesAreKept() throws {
        let root = try #require(load("a: 1\nb: \"1\"\nc: '1'\nd: |\n  1\ne: >\n  1\n").root)
        let values = try #require(root.mapping).map { ($0.value.scalar!.style, $0.value.scalar!.value) }
        #expect(values[0] == (.plain, .int(1)))
        #expect(values[1] == (.doubleQuoted, .string("1")))
        #expect(values[2] == (.singleQuoted, .string("1")))
        #expect(values[3] == (.literal, .string("1\n")))
        #expect(values[4] == (.folded, .string("1\n")))
    }

    @Test func aliasesResolveToTheAnchoredNode() throws {
        let root = try #require(load("a: &x { type: string }\nb: *x\n").root)
        let entries = try #require(root.mapping)
        #expect(entries[1].value == entries[0].value)
    }

    @Test func unknownAnchorIsReportedAndReadingGoesOn() {
        let result = load("a: *nope\nb: 1\n")
        #expect(result.diagnostics.map(Finding.init) == [Finding(.unknownAnchor, line: 1, column: 4)])
        #expect(result.root?.mapping?.count == 2)
    }

    @Test func duplicateKeysAreKeptForTheReaderToReport() throws {
        let root = try #require(load("a: 1\na: 2\n").root)
        #expect(root.mapping?.count == 2)
    }

    @Test func nonScalarKeysAreRejected() {
        let result = load("? [a, b]\n: 1\n")
        #expect(result.diagnostics.map(Finding.init) == [Finding(.wrongValueKind, line: 1, column: 3)])
    }

    @Test func secondDocumentIsRejectedButTheFirstIsKept() {
        let result = load("a: 1\n---\nb: 2\n")
        #expect(result.diagnostics.map(Finding.init) == [Finding(.multipleDocuments, line: 2, column: 1)])
        #expect(result.isComplete)
        #expect(result.root?.mapping?.first?.key.text == "a")
    }

    @Test func emptyAndCommentOnlyFilesHaveNoRoot() {
        for text in ["", "# nothing\n", "---\n", "~\n"] {
            let result = load(text)
            #expect(result.root == nil && result.diagnostics.isEmpty && result.isComplete, "\(text)")
        }
    }

    @Test func syntaxErrorNamesTheProblemAndItsContext() throws {
        let result = load("a:\n  - b\n  c: d\n")
        let diagnostic = try #require(result.diagnostics.first)
        #expect(Finding(diagnostic) == Finding(.yamlSyntax, line: 3, column: 3))
        #expect(diagnostic.message.hasPrefix("YAML syntax error: "))
        #expect(!result.isComplete && result.root == nil)
    }

    // MARK: - Bad input never crashes or hangs

    @Test func invalidUTF8IsReportedWhereItIs() throws {
        let bytes = Array("models:\n  A:\n    fields: { t: \"caf".utf8) + [0xE9] + Array("\" }\n".utf8)
        let result = YAMLLoader().load(bytes, file: "f.yaml")
        let diagnostic = try #require(result.diagnostics.first)
        #expect(Finding(diagnostic) == Finding(.yamlSyntax, line: 3, column: 22))
        #expect(diagnostic.message.contains("not valid UTF-8"))
    }

    @Test func binaryFileIsReportedAsNotText() throws {
        let bytes: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00]
        let result = YAMLLoader().load(bytes, file: "f.yaml")
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.code == .yamlSyntax && diagnostic.location.line == 1)
        #expect(diagnostic.message.contains("not text"))
    }

    @Test func hundredThousandNestedFlowListsStopAtTheDepthLimit() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let result = load(text)
        #expect(result.diagnostics.map(Finding.init) == [Finding(.nestingTooDeep, line: 1, column: 65)])
    }

    @Test func hundredThousandNestedBlockSequencesStopAtTheDepthLimit() {
        // "- - - ... x": block sequences nested on one line.
        let text = String(repeating: "- ", count: 100_000) + "x\n"
        let result = load(text)
        #expect(result.diagnostics.map(Finding.init) == [Finding(.nestingTooDeep, line: 1, column: 129)])
    }

    @Test func aliasBombIsStopped() {
        let result = load(billionLaughs)
        #expect(result.diagnostics.map(\.code) == [.aliasExpansionTooLarge])
        #expect(result.root == nil)
    }

    @Test func depthLimitIsConfigurable() {
        let loader = YAMLLoader(limits: .init(maxDepth: 2))
        #expect(loader.load(Array("a: { b: 1 }".utf8), file: "f").diagnostics.isEmpty)
        #expect(loader.load(Array("a: { b: [1] }".utf8), file: "f").diagnostics.map(\.code) == [.nestingTooDeep])
    }
}

@Suite("Scalars resolve by the YAML 1.2 core schema")
struct ScalarValueTests {
    @Test(arguments: [
        ("~", YAMLScalarValue.null), ("null", .null), ("NULL", .null), ("", .null), ("nothing", .string("nothing")),
        ("true", .bool(true)), ("TRUE", .bool(true)), ("False", .bool(false)), ("fals", .string("fals")),
        ("-.Inf", .double(-.infinity)), ("+.INF", .double(.infinity)), (".info", .string(".info")),
        ("yes", .string("yes")), ("on", .string("on")),
        ("0", .int(0)), ("-17", .int(-17)), ("+3", .int(3)), ("0777", .int(777)), ("0x1F", .int(31)), ("0o17", .int(15)),
        ("-9223372036854775808", .int(.min)), ("9223372036854775808", .integerOutOfRange),
        ("1.5", .double(1.5)), ("-2e3", .double(-2000)), (".5", .double(0.5)), (".inf", .double(.infinity)),
        ("1.2.3", .string("1.2.3")), ("2024-05-01", .string("2024-05-01")), ("0x", .string("0x")), ("e5", .string("e5")),
    ])
    func plainScalar(_ text: String, _ expected: YAMLScalarValue) {
        #expect(YAMLScalar(text).value == expected)
    }

    @Test func quotedScalarsAreAlwaysText() {
        #expect(YAMLScalar("1", style: .doubleQuoted).value == .string("1"))
        #expect(YAMLScalar("true", style: .singleQuoted).value == .string("true"))
        #expect(YAMLScalar("", style: .doubleQuoted).value == .string(""))
    }

    @Test func notANumberResolvesToDouble() {
        guard case .double(let value) = YAMLScalar(".nan").value else {
            Issue.record("expected a double")
            return
        }
        #expect(value.isNaN)
    }
}

/// The mistake a hand-edited schema makes most: a line indented wrong. libyaml stops with "did
/// not find expected key" somewhere after it; the message names the line and column where the
/// indentation went wrong and the indentations that would be right there.
@Suite("Indentation mistakes, named where they happen")
struct IndentationMistakeTests {
    private func first(_ text: String) -> Diagnostic? {
        SchemaPipeline().validate([SchemaSource(path: "f.yaml", text: text)]).diagnostics.first
    }

    private let note = "models:\n  Note:\n    fields:\n      title: string\n"

    @Test func aLineBetweenTwoLevelsNamesBoth() throws {
        let diagnostic = try #require(first(note + "     body: string\n"))
        #expect(diagnostic.code == .yamlSyntax)
        #expect((diagnostic.location.line, diagnostic.location.column) == (5, 6))
        #expect(diagnostic.message == "YAML syntax error: line 5 is indented 5 spaces, which lines up with no key above it: indent 'body' 6 spaces, as 'title' on line 4, or 4 spaces, as 'fields' on line 3 (libyaml: did not find expected key)")
    }

    @Test func aLineDeeperThanAValueIsToldItContinuesThatValue() throws {
        let diagnostic = try #require(first(note + "       body: string\n"))
        #expect((diagnostic.location.line, diagnostic.location.column) == (5, 8))
        #expect(diagnostic.message.contains("line 5 is indented 7 spaces, more than 'title' on line 4 (6), so YAML reads it as more of the value of 'title'; indent 'body' 6 spaces, as 'title' is"))
    }

    @Test func aFieldOptionBetweenLevels() throws {
        let diagnostic = try #require(first("models:\n  Note:\n    fields:\n      title:\n        type: string\n       optional: true\n"))
        #expect((diagnostic.location.line, diagnostic.location.column) == (6, 8))
        #expect(diagnostic.message.contains("indent 'optional' 8 spaces, as 'type' on line 5, or 6 spaces, as 'title' on line 4"))
    }

    @Test func aTabIsNamed() throws {
        let diagnostic = try #require(first("models:\n  Note:\n    fields:\n\ttitle: string\n"))
        #expect((diagnostic.location.line, diagnostic.location.column) == (4, 1))
        #expect(diagnostic.message.hasPrefix("YAML syntax error: line 4 is indented with a tab: YAML indents with spaces only"))
    }

    /// Valid YAML, but a field landed among the model's keys: the unknown key says where it goes.
    @Test func aFieldIndentedTooLittleIsToldWhereFieldsGo() throws {
        let beside = try #require(first(note + "    body: string\n"))
        #expect(beside.code == .unknownKey)
        #expect(beside.message == "unknown key 'body' in model 'Note'; it reads as a field: indent it 6 spaces, under 'fields' (line 3), as 'title' is")
        let alone = try #require(first("models:\n  Note:\n    fields:\n    title: { type: string }\n"))
        #expect(alone.message == "unknown key 'title' in model 'Note'; it reads as a field: indent it under 'fields' (line 3), deeper than 'fields' is")
        let notAField = try #require(first(note + "    colour: blue\n"))
        #expect(notAField.message == "unknown key 'colour' in model 'Note'")
    }

    /// Other syntax errors keep libyaml's words.
    @Test func otherSyntaxErrorsAreLibyamls() throws {
        let diagnostic = try #require(first("models: { Note: [\n"))
        #expect(diagnostic.code == .yamlSyntax)
        #expect(!diagnostic.message.contains("indented"))
    }
}
