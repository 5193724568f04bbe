import Foundation
import SyncGenerator

/// The schema files the editor works on: open documents over the disk's files, grouped into
/// schema folders, each validated as the command line validates a folder.
///
/// A document's schema folder is the folder the client names in `schemaFolders` (initialization
/// options) that holds it, else the folder the document is in: every schema file there and below
/// is validated with it, open or not, so fixing a model in one file clears what it caused in
/// another.
struct Workspace {
    let fileSystem: any SchemaFileSystem
    private var baseline: SchemaBaseline?
    private let loadBaseline: LanguageServer.BaselineLoader?
    private var schemaFolders: [String] = []

    /// Open documents by path: their text as the editor has it.
    private(set) var documents: [String: OpenDocument] = [:]
    /// Folders whose files changed since they were last validated.
    private var pendingFolders: Set<String> = []
    /// Per folder, the files last given diagnostics, so a fixed file is cleared.
    private var published: [String: Set<String>] = [:]
    /// Each file's diagnostics from the last validation: what hover explains.
    private(set) var lastDiagnostics: [String: [Diagnostic]] = [:]
    private var baselines: [String: Result<[SchemaSource], BaselineFailure>] = [:]
    private var messages: [String] = []

    struct OpenDocument {
        var uri: String
        var text: String
        var version: Int
    }

    struct BaselineFailure: Error { var message: String }

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
        pendingFolders.insert(folder(of: path))
    }

    mutating func change(uri: String, text: String, version: Int) {
        guard let path = Self.path(of: uri), documents[path] != nil else { return }
        documents[path] = OpenDocument(uri: uri, text: text, version: version)
        pendingFolders.insert(folder(of: path))
    }

    mutating func close(uri: String) {
        guard let path = Self.path(of: uri) else { return }
        documents[path] = nil
        // The file on disk stands for it again (or nothing, if it was never saved).
        pendingFolders.insert(folder(of: path))
    }

    /// Files changed on disk (a save, or another program): every served folder is read again.
    mutating func filesChanged() {
        pendingFolders.formUnion(published.keys)
        pendingFolders.formUnion(documents.keys.map(folder(of:)))
    }

    var hasPendingWork: Bool { !pendingFolders.isEmpty }

    mutating func appendMessage(_ message: String) { messages.append(message) }

    mutating func takeMessages() -> [String] {
        defer { messages.removeAll() }
        return messages
    }

    // MARK: - Folders

    func folder(of path: String) -> String {
        if let configured = schemaFolders.filter({ path.hasPrefix($0 + "/") }).max(by: { $0.count < $1.count }) { return configured }
        return (path as NSString).deletingLastPathComponent
    }

    /// Every schema file of a folder with its current text: the open document's, else the disk's.
    func sources(in folder: String) -> [SchemaSource] {
        var paths = Set(fileSystem.schemaFiles(in: folder))
        for path in documents.keys where self.folder(of: path) == folder { paths.insert(path) }
        return paths.sorted().compactMap { path in
            guard let text = text(of: path) else { return nil }
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

    /// Validates every folder with changes; each file's diagnostics in the protocol's form, by URI
    /// (an empty list clears a file that had some).
    mutating func validatePending(explanationsURL: String) -> [(String, [JSON])] {
        var published: [(String, [JSON])] = []
        for folder in pendingFolders.sorted() {
            let sources = sources(in: folder)
            let diagnostics = diagnostics(of: sources, in: folder)
            let texts = Dictionary(sources.map { ($0.path, $0.bytes) }, uniquingKeysWith: { first, _ in first })
            var byFile: [String: [JSON]] = [:]
            for path in self.published[folder] ?? [] { lastDiagnostics[path] = nil }
            for diagnostic in diagnostics {
                lastDiagnostics[diagnostic.location.file, default: []].append(diagnostic)
                byFile[diagnostic.location.file, default: []].append(DiagnosticJSON.json(diagnostic, lines: { path in
                    TextLines(texts[path].map { String(decoding: $0, as: UTF8.self) } ?? text(of: path) ?? "")
                }, uri: uri(of:), explanationsURL: explanationsURL))
            }
            let files = Set(byFile.keys).union(self.published[folder] ?? []).union(sources.map(\.path))
            for file in files.sorted() {
                published.append((uri(of: file), byFile[file] ?? []))
            }
            self.published[folder] = Set(byFile.keys)
        }
        pendingFolders.removeAll()
        return published
    }

    /// The folder's diagnostics: the validator's, or with a baseline, the check against it.
    private mutating func diagnostics(of sources: [SchemaSource], in folder: String) -> [Diagnostic] {
        guard let baseline, let loadBaseline else { return SchemaPipeline().validate(sources).diagnostics }
        if baselines[folder] == nil {
            do {
                baselines[folder] = .success(try loadBaseline(baseline, folder))
            } catch {
                let failure = BaselineFailure(message: "syncgen: the deployed schema for '\(folder)' cannot be read (\(error)); checking without it")
                baselines[folder] = .failure(failure)
                messages.append(failure.message)
            }
        }
        guard case .success(let deployed) = baselines[folder] else { return SchemaPipeline().validate(sources).diagnostics }
        return BaselineCheck(baseline: deployed, new: sources).diagnostics
    }
}
