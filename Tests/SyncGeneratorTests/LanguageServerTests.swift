import Foundation
import Testing
import SyncGenerator
@testable import SchemaLanguageServer

/// Schema folders served from memory.
private final class MemoryFiles: SchemaFileSystem, @unchecked Sendable {
    private let lock = NSLock()
    private var files: [String: String]

    init(_ files: [String: String]) { self.files = files }

    func schemaFiles(in folder: String) -> [String] {
        lock.withLock { files.keys.filter { $0.hasPrefix(folder + "/") }.sorted() }
    }

    func read(_ path: String) -> String? { lock.withLock { files[path] } }
}

/// A client in the test: frames messages to the server in-process and reads back what it wrote.
private final class Client {
    let server: LanguageServer
    private var nextID = 1
    /// Everything the server wrote, message by message.
    private(set) var received: [JSON] = []

    init(_ files: [String: String], baseline: SchemaBaseline? = nil, deployed: [SchemaSource] = [], initialize: Bool = true) {
        server = LanguageServer(configuration: .init(
            fileSystem: MemoryFiles(files), baseline: baseline,
            loadBaseline: { _, _ in deployed }, explanationsURL: "https://example.com/Diagnostics.md"))
        if initialize {
            _ = request("initialize", ["capabilities": [:]])
            notify("initialized", [:])
        }
    }

    func send(_ bytes: Data) {
        server.receive(bytes)
        read()
    }

    func notify(_ method: String, _ params: JSON) {
        send(MessageFramer.frame(["jsonrpc": "2.0", "method": .string(method), "params": params]))
    }

    /// Sends a request and returns its response.
    @discardableResult
    func request(_ method: String, _ params: JSON) -> JSON {
        let id = nextID
        nextID += 1
        send(MessageFramer.frame(["jsonrpc": "2.0", "id": .number(Double(id)), "method": .string(method), "params": params]))
        return received.last { $0["id"]?.int == id } ?? .null
    }

    /// The input went quiet: pending edits are validated.
    func idle() {
        server.runPendingWork()
        read()
    }

    private func read() {
        var framer = MessageFramer()
        framer.append(server.takeOutput())
        while let body = try? framer.next() {
            received.append(JSON(parsing: Data(body))!)
        }
    }

    func open(_ path: String, _ text: String, version: Int = 1) {
        notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri(path)), "languageId": "yaml", "version": .number(Double(version)), "text": .string(text)]])
    }

    func change(_ path: String, _ text: String, version: Int) {
        notify("textDocument/didChange", ["textDocument": ["uri": .string(uri(path)), "version": .number(Double(version))], "contentChanges": [["text": .string(text)]]])
    }

    func uri(_ path: String) -> String { URL(fileURLWithPath: path).absoluteString }

    func place(_ path: String, _ line: Int, _ character: Int) -> JSON {
        ["textDocument": ["uri": .string(uri(path))], "position": ["line": .number(Double(line)), "character": .number(Double(character))]]
    }

    /// The diagnostics last published for a file: (line, code) pairs, nil if none were published.
    func diagnostics(_ path: String) -> [JSON]? {
        received.last { $0["method"]?.string == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.string == uri(path) }?["params"]?["diagnostics"]?.array
    }

    /// The quick fixes offered for every diagnostic last published for a file, asked at the
    /// first one's range.
    func codeActions(_ path: String) -> [JSON]? {
        guard let diagnostics = diagnostics(path), let range = diagnostics.first?["range"] else { return nil }
        return request("textDocument/codeAction", [
            "textDocument": ["uri": .string(uri(path))], "range": range, "context": ["diagnostics": .array(diagnostics)],
        ])["result"]?.array
    }

    func publishCount(_ path: String) -> Int {
        received.filter { $0["method"]?.string == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.string == uri(path) }.count
    }
}

private let notes = "/w/Schema/Notes.yaml"
private let people = "/w/Schema/People.yaml"
private let notesText = """
    models:
      Note:
        fields:
          title: string
          author: { type: reference, to: Persn }

    """
private let peopleText = """
    models:
      Person:
        fields: { name: string }

    """

@Suite("Language server: schemas in the editor, through the protocol")
struct LanguageServerTests {
    @Test func initializeSaysWhatTheServerDoesAndNothingIsAnsweredBefore() {
        let client = Client([:], initialize: false)
        let early = client.request("textDocument/hover", client.place(notes, 0, 0))
        #expect(early["error"]?["code"]?.int == -32002)
        let result = client.request("initialize", ["capabilities": [:]])["result"]
        #expect(result?["capabilities"]?["textDocumentSync"]?["change"]?.int == 1)
        #expect(result?["capabilities"]?["hoverProvider"]?.bool == true)
        #expect(result?["serverInfo"]?["name"]?.string == "syncgen")
    }

    /// A mistake in one file names a model of another; fixing the other file clears it. Breaking
    /// it: validating the changed file alone leaves Notes.yaml's error in place.
    @Test func diagnosticsSpanTheFolderAndClearWhenAnotherFileFixesThem() throws {
        let client = Client([notes: notesText, people: peopleText])
        client.open(notes, notesText)
        client.idle()
        let first = try #require(client.diagnostics(notes))
        #expect(first.count == 1)
        #expect(first[0]["code"]?.string == "SG0601")
        #expect(first[0]["severity"]?.int == 1)
        #expect(first[0]["range"] == ["start": ["line": 4, "character": 37], "end": ["line": 4, "character": 42]])
        #expect(first[0]["codeDescription"]?["href"]?.string == "https://example.com/Diagnostics.md#sg0601")
        let related = try #require(first[0]["relatedInformation"]?.array?.first)
        #expect(related["location"]?["uri"]?.string == client.uri(people))
        #expect(related["message"]?.string == "'Person' is declared here")
        #expect(client.diagnostics(people) == nil, "a file nobody opened, with nothing to say, is not published")

        client.open(people, peopleText)
        client.change(people, peopleText.replacingOccurrences(of: "Person", with: "Persn"), version: 2)
        client.idle()
        #expect(client.diagnostics(notes) == [], "the other file's fix clears the error")

        // Closed unsaved, People.yaml is the disk's again: the error is back.
        client.notify("textDocument/didClose", ["textDocument": ["uri": .string(client.uri(people))]])
        client.idle()
        #expect(client.diagnostics(notes)?.compactMap { $0["code"]?.string } == ["SG0601"])
    }

    /// Keystrokes are validated once the input is quiet, not once each: three changes, one
    /// publication, of the last text.
    @Test func aBurstOfChangesIsValidatedOnceWithTheLastText() {
        let client = Client([notes: notesText, people: peopleText])
        client.open(notes, notesText)
        for (version, type) in ["strin", "stri", "strng"].enumerated() {
            client.change(notes, notesText.replacingOccurrences(of: "title: string", with: "title: \(type)"), version: version + 2)
        }
        #expect(client.publishCount(notes) == 0)
        #expect(client.server.hasPendingWork)
        client.idle()
        #expect(client.publishCount(notes) == 1)
        #expect(client.received.last { $0["method"]?.string == "textDocument/publishDiagnostics" }?["params"]?["version"]?.int == 4, "found in the last text")
        #expect(client.diagnostics(notes)?.compactMap { $0["message"]?.string }.contains { $0.contains("'strng'") } == true)
        #expect(!client.server.hasPendingWork)
    }

    /// A package target's schema files are checked together wherever they sit in it, as the build
    /// plugin reads them; elsewhere, a file's own folder; a folder the client names wins.
    @Test func aDocumentsSchemaFolderIsItsTargetsOrItsOwn() {
        let client = Client([
            "/p/Sources/App/Schema/Notes.yaml": notesText.replacingOccurrences(of: "Persn", with: "Person"),
            "/p/Sources/App/People/People.yaml": peopleText,
        ])
        client.open("/p/Sources/App/Schema/Notes.yaml", notesText.replacingOccurrences(of: "Persn", with: "Person"))
        client.idle()
        #expect(client.diagnostics("/p/Sources/App/Schema/Notes.yaml") == [], "Person is found in the target's other folder")
        #expect(client.server.workspace.folder(of: "/p/Sources/App/Notes.yaml") == "/p/Sources/App")
        #expect(client.server.workspace.folder(of: "/x/Schema/Notes.yaml") == "/x/Schema")
        let configured = Client([:], initialize: false)
        configured.request("initialize", ["initializationOptions": ["schemaFolders": ["/p/Sources/App/Schema"]]])
        #expect(configured.server.workspace.folder(of: "/p/Sources/App/Schema/Lists/Lists.yaml") == "/p/Sources/App/Schema")
    }

    /// YAML that is no schema (a workflow, a compose file) outside a folder of schemas is left
    /// alone: editors start the server for every YAML file. Breaking it: the compose file is
    /// validated and gets "unknown key" errors. A file that says it is a schema (`models:`) is one.
    @Test func otherYAMLIsLeftAlone() {
        let compose = "/w/deploy/compose.yaml"
        let text = "services:\n  web:\n    image: nginx\n"
        let client = Client([compose: text])
        client.open(compose, text)
        client.idle()
        #expect(client.diagnostics(compose) == nil)
        #expect(client.request("textDocument/completion", client.place(compose, 1, 2))["result"]?["items"] == [])
        client.change(compose, "models:\n  A:\n    fields: { title: strng }\n", version: 2)
        client.idle()
        #expect(client.diagnostics(compose)?.compactMap { $0["code"]?.string } == ["SG0602"])
        client.change(compose, text, version: 3)
        client.idle()
        #expect(client.diagnostics(compose) == [], "cleared once it is no schema again")
    }

    @Test func completionOffersWhatIsValidAtTheCursor() {
        let text = """
            models:
              Note:
                sc
                parent: Pe
                fields:
                  title: st
                  owner: { type: reference, to: P, ind }
                  tags: { type: list, of: string, index: [que] }
                  state: { type: enum, cases: [todo, doing, done], default: do }
              Person:
                scopes: [private, sh]
                fields: {}

            """
        // The disk holds the file as last saved; the editor's text, half typed, does not load.
        let saved = text.replacingOccurrences(of: "    sc\n", with: "").replacingOccurrences(of: ", ind }", with: " }")
        let client = Client([notes: saved])
        client.open(notes, text)
        func labels(_ line: Int, _ character: Int) -> [String] {
            client.request("textDocument/completion", client.place(notes, line, character))["result"]?["items"]?.array?.compactMap { $0["label"]?.string } ?? []
        }
        #expect(labels(2, 6) == ["scopes"], "a model's keys")
        #expect(labels(3, 14) == ["Person"], "model names for a parent")
        #expect(labels(5, 15) == ["string"], "a field's shorthand type")
        #expect(labels(6, 37) == ["Person"], "model names for a reference's target")
        #expect(labels(6, 42) == ["index"], "a field's keys in its flow mapping")
        #expect(labels(7, 49) == ["queryable"], "index kinds in a list")
        #expect(labels(8, 66) == ["doing", "done"], "an enum's cases for its default")
        #expect(labels(10, 24) == ["shared"], "scopes in a list")
        let documented = client.request("textDocument/completion", client.place(notes, 2, 6))["result"]?["items"]?.array?.first
        #expect(documented?["documentation"]?.string == SchemaVocabulary.documentation(ofKey: "scopes", at: .model))
        let word = client.request("textDocument/completion", client.place(notes, 5, 15))["result"]?["items"]?.array?.first
        #expect(word?["documentation"]?.string == FieldKind.scalar(.string).documentation)
    }

    /// A model's `zone:` is completed with the zones the other models name (never the model's
    /// own half-typed value). Breaking it: no zone is offered.
    @Test func completionOffersTheZonesOtherModelsName() {
        let text = """
            models:
              Chore:
                zone: Household
                fields: {}
              Diary:
                zone: Personal
                fields: {}
              Budget:
                zone: Ho
                fields: {}

            """
        let client = Client([notes: text])
        client.open(notes, text)
        let items = client.request("textDocument/completion", client.place(notes, 8, 12))["result"]?["items"]?.array ?? []
        #expect(items.compactMap { $0["label"]?.string } == ["Household"])
        #expect(items.first?["documentation"]?.string == "the zone of Chore")
    }

    /// A model's, a field's and a case's description are in the hover, resolved or not.
    /// Breaking it (the declaration's words left out of the hover): none of them is there.
    @Test func hoverShowsTheSchemasWords() throws {
        let text = """
            models:
              Item:
                description: Something to buy.
                fields:
                  size:
                    type: enum
                    cases: [small, { large: The family pack. }]
                    description: How big.

            """
        let client = Client([notes: text])
        client.open(notes, text)
        client.idle()
        let hover = { (line: Int, character: Int) in
            client.request("textDocument/hover", client.place(notes, line, character))["result"]?["contents"]?["value"]?.string ?? ""
        }
        #expect(hover(1, 3).contains("**Item**: a model in [private]\n\nSomething to buy.\n\n- record type `Item`"), "\(hover(1, 3))")
        let field = hover(4, 7)
        #expect(field.contains("\n\nHow big.\n\n") && field.contains("cases: `small`, `large` (The family pack.)"), "\(field)")
    }

    @Test func hoverTellsWhatAModelAndAFieldResolveToAndExplainsADiagnostic() throws {
        let text = """
            models:
              List:
                scopes: [private, shared]
                shareable: true
                fields:
                  title: string
                  tags: { type: list, of: string, index: [queryable] }
                  when: strng
                  state: { type: enum, cases: [todo, done] }

            """
        let client = Client([notes: text])
        client.open(notes, text)
        client.idle()
        func hover(_ line: Int, _ character: Int) -> String? {
            client.request("textDocument/hover", client.place(notes, line, character))["result"]?["contents"]?["value"]?.string
        }
        let model = try #require(hover(1, 3))
        #expect(model.contains("record type `List`"))
        #expect(model.contains("the shared database"))
        #expect(model.contains("shareable"))
        let diagnostic = try #require(hover(7, 14))
        #expect(diagnostic.contains("**SG0602**") && diagnostic.contains("What it protects against"))
        // While the folder has an error, a field is described as it is written: the hover helps
        // most while a mistake is being fixed. Breaking it: only the field's first line.
        let written = try #require(hover(6, 7))
        #expect(written.contains("**List.tags**: list") && written.contains("a list of `string`") && written.contains("indexes: QUERYABLE"), "\(written)")

        let fixed = text.replacingOccurrences(of: "strng", with: "date")
        client.change(notes, fixed, version: 2)
        client.idle()
        let field = try #require(hover(6, 7))
        #expect(field.contains("**List.tags**: list of string"))
        #expect(field.contains("CloudKit type `LIST<STRING>`"))
        #expect(field.contains("indexes: QUERYABLE"))
        let state = try #require(hover(8, 7))
        #expect(state.contains("**List.state**: enum") && state.contains("cases: `todo`, `done`; any other name is kept as `unknown`"), "\(state)")
        #expect(hover(0, 0) == nil)
    }

    /// A folder checked against a baseline keeps no schema of its last validation: the hover
    /// resolves the folder on its own. Breaking it (seen in issue 57: the last validation's nil
    /// schema taken as an answer): only the field's first line.
    @Test func hoverResolvesAFieldUnderABaseline() throws {
        let text = """
            models:
              List:
                fields:
                  tags: { type: list, of: string }

            """
        let client = Client([notes: text], baseline: .git(ref: "main"), deployed: [SchemaSource(path: "main:Notes.yaml", text: text)])
        client.open(notes, text)
        client.idle()
        let field = try #require(client.request("textDocument/hover", client.place(notes, 3, 7))["result"]?["contents"]?["value"]?.string)
        #expect(field.contains("CloudKit type `LIST<STRING>`"), "\(field)")
    }

    @Test func definitionAndReferencesFollowModelNamesAcrossFiles() throws {
        let fixed = notesText.replacingOccurrences(of: "Persn", with: "Person")
        let client = Client([notes: fixed, people: peopleText])
        client.open(notes, fixed)
        let definition = try #require(client.request("textDocument/definition", client.place(notes, 4, 38))["result"]?.array)
        #expect(definition == [["uri": .string(client.uri(people)), "range": ["start": ["line": 1, "character": 2], "end": ["line": 1, "character": 8]]]])
        let references = try #require(client.request("textDocument/references", client.place(people, 1, 4).merging(["context": ["includeDeclaration": false]]))["result"]?.array)
        #expect(references.map { $0["uri"]?.string } == [client.uri(notes)])
    }

    /// A model renamed keeps its CloudKit record type; a draft's field renamed is renamed in its
    /// projection too (their fields mirror each other).
    @Test func renameReachesEveryFileAndKeepsTheRecordType() throws {
        let fixed = notesText.replacingOccurrences(of: "Persn", with: "Person")
        let client = Client([notes: fixed, people: peopleText])
        client.open(notes, fixed)
        let edit = try #require(client.request("textDocument/rename", client.place(people, 1, 4).merging(["newName": "Author"]))["result"]?["changes"])
        #expect(edit[client.uri(notes)]?.array?.map { $0["newText"]?.string } == ["Author"])
        let inPeople = try #require(edit[client.uri(people)]?.array)
        #expect(inPeople.compactMap { $0["newText"]?.string }.sorted() == ["    recordType: Person\n", "Author"])
        #expect(client.received.contains { $0["method"]?.string == "window/showMessage" } == false, "said when the input is quiet")
        client.idle()
        #expect(client.received.contains { $0["params"]?["message"]?.string?.contains("keeps its record type") == true })

        let published = """
            models:
              Draft:
                publishAs: Listing
                fields: { title: string }
              Listing:
                scopes: [public]
                fields: { title: string }

            """
        let other = Client([notes: published])
        other.open(notes, published)
        let fieldEdit = try #require(other.request("textDocument/rename", other.place(notes, 3, 15).merging(["newName": "name"]))["result"]?["changes"]?[other.uri(notes)]?.array)
        // The draft's field and its projection's each keep their deployed key.
        #expect(fieldEdit.map { $0["range"]?["start"]?["line"]?.int } == [3, 6, 3, 6])
        #expect(fieldEdit.compactMap { $0["newText"]?.string } == ["name", "name", "{ type: string, recordKey: title }", "{ type: string, recordKey: title }"])
        let refused = other.request("textDocument/rename", other.place(notes, 3, 15).merging(["newName": "2x"]))
        #expect(refused["error"]?["code"]?.int == -32602)

        // A model on one line cannot have its record type kept by an added line: refused, saying so.
        let oneLine = "models:\n  Tag: { fields: { name: string } }\n"
        let third = Client([notes: oneLine])
        third.open(notes, oneLine)
        let flow = third.request("textDocument/rename", third.place(notes, 1, 3).merging(["newName": "Label"]))
        #expect(flow["error"]?["message"]?.string?.contains("add 'recordType: Tag' to it first") == true)
        // A blank line and a comment after the name: the key goes in at the model's keys' indent.
        let spaced = "models:\n  Tag:\n\n    # its fields\n    fields: { name: string }\n"
        let fourth = Client([notes: spaced])
        fourth.open(notes, spaced)
        let added = try #require(fourth.request("textDocument/rename", fourth.place(notes, 1, 3).merging(["newName": "Label"]))["result"]?["changes"]?[fourth.uri(notes)]?.array)
        let texts = added.compactMap { $0["newText"]?.string }
        #expect(texts.contains("    recordType: Tag\n"))
    }

    /// A field renamed keeps its deployed key as `recordKey:`, in whichever form it is written
    /// (the shorthand, a flow mapping, a block mapping), once; a field that has one already is
    /// only renamed, and the hover says where it is stored. Breaking it (the rename as before
    /// `recordKey:`): only the names change, and the deployed values are left behind.
    @Test func aFieldRenamedKeepsItsRecordKey() throws {
        let text = """
            models:
              Recipe:
                unique: [[title]]
                fields:
                  title: string  # the dish
                  servings: {type: int}
                  steps:
                    # how
                    type: string
                  photo: { type: asset, recordKey: picture }
                  remarks: { type: string, recordKey: notes }

            """
        func rename(line: Int, column: Int, to newName: String) throws -> [JSON] {
            let client = Client([notes: text])
            client.open(notes, text)
            return try #require(client.request("textDocument/rename", client.place(notes, line, column).merging(["newName": .string(newName)]))["result"]?["changes"]?[client.uri(notes)]?.array)
        }
        func edits(_ found: [JSON]) -> [String] {
            found.map { edit in
                let start = edit["range"]?["start"], end = edit["range"]?["end"]
                return "\(start?["line"]?.int ?? -1):\(start?["character"]?.int ?? -1)-\(end?["character"]?.int ?? -1) \(edit["newText"]?.string ?? "")"
            }.sorted()
        }
        // From its use in `unique`: the declaration and the use renamed, the shorthand expanded.
        #expect(try edits(rename(line: 2, column: 15, to: "dish")) == ["2:14-19 dish", "4:13-19 { type: string, recordKey: title }", "4:6-11 dish"])
        #expect(try edits(rename(line: 5, column: 7, to: "portions")) == ["5:17-17 recordKey: servings, ", "5:6-14 portions"])
        #expect(try edits(rename(line: 6, column: 7, to: "method")) == ["6:6-11 method", "8:0-0         recordKey: steps\n"])
        #expect(try edits(rename(line: 9, column: 7, to: "image")) == ["9:6-11 image"])

        let client = Client([notes: text])
        client.open(notes, text)
        client.idle()
        func hover(_ line: Int) throws -> String {
            try #require(client.request("textDocument/hover", client.place(notes, line, 7))["result"]?["contents"]?["value"]?.string)
        }
        let renamed = try hover(10), asset = try hover(9)
        #expect(renamed.contains("stored under the record key `notes`"), "\(renamed)")
        // The first asset travels under the keys every model's first asset has.
        #expect(asset.contains("travels under `assetData`, `assetSuffix`"), "\(asset)")
    }

    @Test func theOutlineListsModelsWithTheirFields() throws {
        let client = Client([notes: notesText])
        client.open(notes, notesText)
        let symbols = try #require(client.request("textDocument/documentSymbol", ["textDocument": ["uri": .string(client.uri(notes))]])["result"]?.array)
        #expect(symbols.map { $0["name"]?.string } == ["Note"])
        #expect(symbols[0]["children"]?.array?.map { $0["name"]?.string } == ["title", "author"])
        #expect(symbols[0]["detail"]?.string == "[private]")
    }

    @Test func aSuggestionBecomesAQuickFix() throws {
        let client = Client([notes: notesText, people: peopleText])
        client.open(notes, notesText)
        client.idle()
        let actions = try #require(client.codeActions(notes))
        #expect(actions.map { $0["title"]?.string } == ["Change to 'Person'"])
        #expect(actions[0]["edit"]?["changes"]?[client.uri(notes)]?.array?.first?["newText"]?.string == "Person")
    }

    /// An enum's case that is no identifier, and a default that is none of its cases, each come
    /// with the name to write instead.
    @Test func anEnumsCaseAndDefaultGetQuickFixes() throws {
        let text = "models:\n  Task:\n    fields:\n      status: { type: enum, cases: [todo, in-progress] }\n      kind: { type: enum, cases: [open, shut], default: opn }\n"
        let client = Client([notes: text])
        client.open(notes, text)
        client.idle()
        let actions = try #require(client.codeActions(notes))
        #expect(Set(actions.compactMap { $0["title"]?.string }) == ["Change to 'inProgress'", "Change to 'open'"])
    }

    /// With a deployed schema, a change it cannot take is an error in the editor, in the file
    /// the editor has (the check places it in the deployed file, `main:Notes.yaml`): at the model
    /// its note names, or at the top of the file of the same path when the model is gone.
    @Test func theDeployedSchemaIsCheckedAgainst() throws {
        let deployed = "models:\n  Note:\n    fields:\n      title: string\n      body: string\n  Tag:\n    fields: {}\n"
        let client = Client([notes: deployed], baseline: .git(ref: "main"), deployed: [SchemaSource(path: "main:Notes.yaml", text: deployed)])
        let edited = "models:\n  Note:\n    fields:\n      title: string\n"
        client.open(notes, edited)
        client.idle()
        let diagnostics = try #require(client.diagnostics(notes))
        #expect(diagnostics.compactMap { $0["code"]?.string }.sorted() == [DiagnosticCode.recordTypeRemoved.rawValue, DiagnosticCode.fieldRemoved.rawValue].sorted())
        let removedField = try #require(diagnostics.first { $0["code"]?.string == DiagnosticCode.fieldRemoved.rawValue })
        #expect(removedField["range"]?["start"] == ["line": 1, "character": 2], "at the model in the edited file")
        #expect(removedField["message"]?.string?.hasSuffix("(deployed: main:Notes.yaml:5:7)") == true)
        let removedType = try #require(diagnostics.first { $0["code"]?.string == DiagnosticCode.recordTypeRemoved.rawValue })
        #expect(removedType["range"]?["start"] == ["line": 0, "character": 0])
    }

    /// Garbage is answered with the protocol's errors, and the server goes on answering.
    @Test func malformedMessagesAndUnknownMethodsAreAnsweredAndTheServerGoesOn() {
        let client = Client([notes: notesText])
        let body = Data("{not json".utf8)
        client.send(Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
        #expect(client.received.last?["error"]?["code"]?.int == -32700)
        client.send(Data("Content-Type: x\r\n\r\n".utf8))
        #expect(client.received.last?["error"]?["code"]?.int == -32700)
        #expect(client.request("workspace/frobnicate", [:])["error"]?["code"]?.int == -32601)
        client.open(notes, notesText)
        client.idle()
        #expect(client.diagnostics(notes) != nil, "still serving")
    }

    @Test func aClientThatLeavesMidMessageEndsTheServerWithStatusOne() {
        let client = Client([notes: notesText])
        client.send(Data("Content-Length: 100\r\n\r\n{\"jsonrpc\":".utf8))
        #expect(client.server.exitStatus == nil)
        client.server.endOfInput()
        #expect(client.server.exitStatus == 1)

        let polite = Client([:])
        #expect(polite.request("shutdown", .null)["result"] == .null)
        polite.notify("exit", .null)
        #expect(polite.server.exitStatus == 0)
    }

    @Test func jsonIsReadStrictly() {
        #expect(JSON(parsing: Data(#"{"a": [1, -2.5e1, true, null, "\u00e9\ud83d\ude00\n"]}"#.utf8)) == ["a": [1, .number(-25), true, .null, "é😀\n"]])
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "01x", "\"\\ud83d\"", "tru", "[1] 2", "\"a\nb\""] {
            #expect(JSON(parsing: Data(bad.utf8)) == nil, "\(bad)")
        }
        #expect(JSON(parsing: Data([0x22, 0xFF, 0x22])) == nil, "a string of bytes that are not UTF-8")
        #expect(JSON.object(["b": 1, "a": "x\"y"]).text == #"{"a":"x\"y","b":1}"#)
    }

    @Test func positionsCountUTF16AsTheProtocolDoes() {
        let lines = TextLines("a: é😀x\r\nb: 'q r'\n")
        #expect(lines.position(line: 1, column: 6) == Position(line: 0, character: 6))
        #expect(lines.column(of: Position(line: 0, character: 6)) == 6)
        #expect(lines.wordRange(line: 2, column: 4) == Range(start: Position(line: 1, character: 3), end: Position(line: 1, character: 8)))
    }
}

extension JSON {
    fileprivate func merging(_ other: JSON) -> JSON {
        guard case .object(var members) = self, case .object(let more) = other else { return self }
        members.merge(more) { _, new in new }
        return .object(members)
    }
}
