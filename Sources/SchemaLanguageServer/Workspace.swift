import Foundation
import SyncGenerator

/// The schema files the editor works on: open documents over the disk's files, grouped into
/// schema folders, each validated as the command line validates a folder.
///
/// A document's schema folder is the folder the client names in `schemaFolders` (initialization
/// options) that holds it; else, in a package's `Sources/<Target>/`, the target's folder (the build
/// plugin reads every schema file of a target together); else the folder the document is in.
/// Every schema file there and below is validated with it, open or not, so fixing a model in one
/// file clears what it caused in another.
struct Workspace {
    let fileSystem: any SchemaFileSystem
    private var baseline: SchemaBaseline?
    private let loadBaseline: LanguageServer.BaselineLoader?
    private var schemaFolders: [String] = []

    /// Open documents by path: their text as the editor has it.
    private(set) var documents: [String: OpenDocument] = [:]
    /// Folders whose files changed since they were last validated.
    private var pendingFolders: Set<String> = []
    /// Files whose text changed since the last validation: published again even when their
    /// diagnostics read the same (their ranges may not be).
    private var changedFiles: Set<String> = []
    /// Per folder, the last validation: each file's diagnostics (what hover explains, and what
    /// tells an unchanged file, which is not published again), and the resolved schema.
    private(set) var validated: [String: Validation] = [:]
    /// Indexes of the folders' names, made when a request first needs one after a change.
    let cache = Cache()
    private var baselines: [String: Result<[SchemaSource], BaselineFailure>] = [:]
    private var messages: [String] = []

    struct OpenDocument {
        var uri: String
        var text: String
        var version: Int
    }

    struct BaselineFailure: Error { var message: String }

    struct Validation {
        var diagnostics: [String: [Diagnostic]]
        /// Nil when the folder has errors (or was checked against a baseline).
        var schema: Schema?
    }

    final class Cache {
        var indexes: [String: SchemaIndex] = [:]
    }

    /// The folder's last validation, when no change waits to be validated.
    func currentValidation(of folder: String) -> Validation? {
        pendingFolders.contains(folder) ? nil : validated[folder]
    }

    init(fileSystem: any SchemaFileSystem, baseline: SchemaBaseline?, loadBaseline: LanguageServer.BaselineLoader?) {
        self.fileSystem = fileSystem
        self.baseline = baseline
        self.loadBaseline = loadBaseline
    }

    /// Reads the client's `initializationOptions`: `schemaFolders` (absolute paths) and `baseline`
    /// (`{"git": REF}` or `{"files": [PATH]}`).
    mutating func configure(_ options: JSON?) {
        for folder in options?["schemaFolders"]?.array ?? [] {
            guard let path = folder.string else { continue }
            schemaFolders.append(Self.standardized(path))
        }
        if let git = options?["baseline"]?["git"]?.string {
            baseline = .git(ref: git)
        } else if let files = options?["baseline"]?["files"]?.array?.compactMap(\.string), !files.isEmpty {
            baseline = .files(files)
        }
    }

    // MARK: - Documents

    mutating func open(uri: String, text: String, version: Int) {
        guard let path = Self.path(of: uri) else { return }
        documents[path] = OpenDocument(uri: uri, text: text, version: version)
        changed(path)
    }

    mutating func change(uri: String, text: String, version: Int) {
        guard let path = Self.path(of: uri), documents[path] != nil else { return }
        documents[path] = OpenDocument(uri: uri, text: text, version: version)
        changed(path)
    }

    mutating func close(uri: String) {
        guard let path = Self.path(of: uri) else { return }
        documents[path] = nil
        // The file on disk stands for it again (or nothing, if it was never saved).
        changed(path)
    }

    /// Files changed on disk (a save, or another program): every served folder is read again,
    /// its deployed schema too, and every file's diagnostics published again.
    mutating func filesChanged() {
        let folders = Set(validated.keys).union(documents.keys.map(folder(of:)))
        pendingFolders.formUnion(folders)
        for folder in folders { validated[folder] = nil }
        cache.indexes.removeAll()
        baselines.removeAll()  // a save may follow a commit or a checkout: read the deployed schema again
    }

    private mutating func changed(_ path: String) {
        let folder = folder(of: path)
        pendingFolders.insert(folder)
        changedFiles.insert(path)
        cache.indexes[folder] = nil
    }

    /// Folders to validate, or messages to say.
    var hasPendingWork: Bool { !pendingFolders.isEmpty || !messages.isEmpty }

    mutating func appendMessage(_ message: String) { messages.append(message) }

    mutating func takeMessages() -> [String] {
        defer { messages.removeAll() }
        return messages
    }

    // MARK: - Folders

    func folder(of path: String) -> String { schemaFolder(of: path).folder }

    /// The schema folder of a file, and whether every YAML file in it is a schema file: a folder
    /// the client names, or a package target's (as the build plugin reads it).
    private func schemaFolder(of path: String) -> (folder: String, holdsOnlySchemas: Bool) {
        if let configured = schemaFolders.filter({ path.hasPrefix($0 + "/") }).max(by: { $0.count < $1.count }) { return (configured, true) }
        // The build plugin reads every schema file of a target together: so does the editor.
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        if let sources = components.dropLast().lastIndex(of: "Sources"), sources + 2 < components.count {
            return (components[...(sources + 1)].joined(separator: "/"), true)
        }
        return ((path as NSString).deletingLastPathComponent, false)
    }

    /// Whether a YAML file is a schema file: any in a folder of schemas; elsewhere, one that says
    /// so with a top-level `models:` key. Other YAML the editor opens (a CI workflow, a compose
    /// file) is left alone: no diagnostics, no completion.
    func isSchema(_ path: String) -> Bool {
        schemaFolder(of: path).holdsOnlySchemas || text(of: path).map(Self.saysItIsASchema) == true
    }

    private static func saysItIsASchema(_ text: String) -> Bool {
        text.hasPrefix("models:") || text.contains("\nmodels:")
    }

    /// Every schema file of a folder with its current text: the open document's, else the disk's.
    func sources(in folder: String) -> [SchemaSource] {
        var paths = Set(fileSystem.schemaFiles(in: folder))
        for path in documents.keys where self.folder(of: path) == folder { paths.insert(path) }
        let holdsOnlySchemas = paths.first.map { schemaFolder(of: $0).holdsOnlySchemas } ?? true
        return paths.sorted().compactMap { path in
            guard let text = text(of: path), holdsOnlySchemas || Self.saysItIsASchema(text) else { return nil }
            return SchemaSource(path: path, text: text)
        }
    }

    func text(of path: String) -> String? {
        documents[path]?.text ?? fileSystem.read(path)
    }

    func uri(of path: String) -> String {
        documents[path]?.uri ?? URL(fileURLWithPath: path).absoluteString
    }

    static func path(of uri: String) -> String? {
        guard let url = URL(string: uri), url.isFileURL else { return nil }
        return standardized(url.path)
    }

    static func standardized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    // MARK: - Validation

    /// Validates every folder with changes: the `publishDiagnostics` parameters of each file whose
    /// diagnostics (or text) changed (an empty list clears a file).
    mutating func validatePending(explanationsURL: String) -> [JSON] {
        var published: [JSON] = []
        for folder in pendingFolders.sorted() {
            let sources = sources(in: folder)
            let (diagnostics, schema) = diagnostics(of: sources, in: folder)
            let texts = Dictionary(sources.map { ($0.path, $0.bytes) }, uniquingKeysWith: { first, _ in first })
            // Each file's lines and URI are made once, for all of its diagnostics.
            var lines: [String: TextLines] = [:]
            func linesOf(_ path: String) -> TextLines {
                if let made = lines[path] { return made }
                let made = TextLines(texts[path].map { String(decoding: $0, as: UTF8.self) } ?? text(of: path) ?? "")
                lines[path] = made
                return made
            }
            var uris: [String: String] = [:]
            func uriOf(_ path: String) -> String {
                if let made = uris[path] { return made }
                let made = uri(of: path)
                uris[path] = made
                return made
            }
            var byFile: [String: [Diagnostic]] = [:]
            let paths = Set(texts.keys)
            for diagnostic in diagnostics.map({ Self.placed($0, in: paths, folder: folder) }) {
                byFile[diagnostic.location.file, default: []].append(diagnostic)
            }
            let before = validated[folder]?.diagnostics ?? [:]
            let changedHere = changedFiles.filter { self.folder(of: $0) == folder && (texts[$0] != nil || before[$0] != nil) }
            for file in Set(byFile.keys).union(before.keys).union(changedHere).sorted() where byFile[file] != before[file] || changedHere.contains(file) {
                let json = (byFile[file] ?? []).map { DiagnosticJSON.json($0, lines: linesOf, uri: uriOf, explanationsURL: explanationsURL) }
                var params: [String: JSON] = ["uri": .string(uriOf(file)), "diagnostics": .array(json)]
                // The version of the text they were found in, for an open file.
                if let version = documents[file]?.version { params["version"] = .number(Double(version)) }
                published.append(.object(params))
            }
            validated[folder] = Validation(diagnostics: byFile, schema: schema)
        }
        pendingFolders.removeAll()
        changedFiles.removeAll()
        return published
    }

    /// A diagnostic placed in a file of the folder. One the baseline check places in the deployed
    /// schema (`main:Schema/Notes.yaml`, no file the editor has) moves to its note in the folder
    /// ("declared here now"), else to the top of the file of the same path, else of the folder's
    /// first file; the message says where it was deployed. Notes outside the folder are dropped:
    /// the editor cannot open them.
    static func placed(_ diagnostic: Diagnostic, in paths: Set<String>, folder: String) -> Diagnostic {
        var placed = diagnostic
        placed.notes = diagnostic.notes.filter { paths.contains($0.location.file) }
        guard !paths.contains(diagnostic.location.file), let first = paths.min() else { return placed }
        if let note = placed.notes.first {
            placed.location = note.location
            placed.notes.removeFirst()  // it says what the diagnostic now stands on
        } else {
            let relative = diagnostic.location.file.split(separator: ":", maxSplits: 1).last.map(String.init) ?? ""
            let samePath = (folder as NSString).appendingPathComponent(relative)
            placed.location = SourceLocation(file: paths.contains(samePath) ? samePath : first, line: 1, column: 1)
        }
        placed.message += " (deployed: \(diagnostic.location))"
        return placed
    }

    /// The folder's diagnostics (the validator's, or with a baseline, the check against it), and
    /// its resolved schema when valid.
    private mutating func diagnostics(of sources: [SchemaSource], in folder: String) -> ([Diagnostic], Schema?) {
        func validated() -> ([Diagnostic], Schema?) {
            let result = SchemaPipeline().validate(sources)
            return (result.diagnostics, result.schema)
        }
        guard let baseline, let loadBaseline else { return validated() }
        if baselines[folder] == nil {
            do {
                baselines[folder] = .success(try loadBaseline(baseline, folder))
            } catch {
                let failure = BaselineFailure(message: "syncgen: the deployed schema for '\(folder)' cannot be read (\(error)); checking without it")
                baselines[folder] = .failure(failure)
                messages.append(failure.message)
            }
        }
        guard case .success(let deployed) = baselines[folder] else { return validated() }
        return (BaselineCheck(baseline: deployed, new: sources).diagnostics, nil)
    }
}
