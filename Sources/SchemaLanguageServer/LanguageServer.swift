import Foundation
import SyncGenerator

/// A Language Server Protocol server for syncgen schemas: bytes from the client in, bytes for it
/// out. It does no I/O of its own beyond reading schema files through its `SchemaFileSystem`, so
/// tests drive it in-process, message by message; `syncgen lsp` connects it to stdio.
///
/// Edits are validated when the input goes quiet, not per message: the loop calls
/// `runPendingWork()` only once no more input is waiting, so a burst of keystrokes is validated
/// once, after the last (a debounce that needs no timer).
package final class LanguageServer {
    /// Reads the deployed schema for a schema folder (the command line provides it: git).
    package typealias BaselineLoader = @Sendable (_ setting: SchemaBaseline, _ folder: String) throws -> [SchemaSource]

    package struct Configuration: Sendable {
        package var fileSystem: any SchemaFileSystem
        /// The deployed schema, when the command line names it; the client's initialization
        /// options may name it too (`baseline: {git: REF}` or `{files: [PATH]}`).
        package var baseline: SchemaBaseline?
        package var loadBaseline: BaselineLoader?
        /// Where a diagnostic code's explanation is read: `<url>#<code, lowercased>`.
        package var explanationsURL: String

        package init(
            fileSystem: any SchemaFileSystem = DiskFileSystem(), baseline: SchemaBaseline? = nil,
            loadBaseline: BaselineLoader? = nil,
            explanationsURL: String = "https://github.com/your-org/syncgen/blob/main/docs/Diagnostics.md"
        ) {
            self.fileSystem = fileSystem
            self.baseline = baseline
            self.loadBaseline = loadBaseline
            self.explanationsURL = explanationsURL
        }
    }

    private enum Stage { case starting, running, shutDown }

    let configuration: Configuration
    private var framer = MessageFramer()
    private var output = Data()
    private var stage = Stage.starting
    var workspace: Workspace
    /// The exit status once the client has said `exit` or gone: 0 after a `shutdown`, 1 otherwise.
    package private(set) var exitStatus: Int32?

    package init(configuration: Configuration = .init()) {
        self.configuration = configuration
        workspace = Workspace(fileSystem: configuration.fileSystem, baseline: configuration.baseline, loadBaseline: configuration.loadBaseline)
    }

    // MARK: - The connection

    /// Takes bytes from the client and answers every whole message among them.
    package func receive(_ bytes: Data) {
        framer.append(bytes)
        while exitStatus == nil {
            do {
                guard let body = try framer.next() else { return }
                handle(body)
            } catch {
                if case .badHeader(let reason) = error {
                    send(Self.errorResponse(id: .null, code: ErrorCode.parseError, message: "unreadable message header: \(reason)"))
                }
            }
        }
    }

    /// The client closed the connection. A message cut off mid-way is dropped; without a
    /// `shutdown` first, the exit status is 1, as the protocol asks.
    package func endOfInput() {
        if exitStatus == nil { exitStatus = stage == .shutDown ? 0 : 1 }
    }

    /// Whether edits wait to be validated, or messages to be said.
    package var hasPendingWork: Bool { workspace.hasPendingWork && stage == .running }

    /// Validates what changed since the last call and publishes the diagnostics.
    package func runPendingWork() {
        guard stage == .running else { return }
        for params in workspace.validatePending(explanationsURL: configuration.explanationsURL) {
            send(["jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": params])
        }
        for message in workspace.takeMessages() {
            send(["jsonrpc": "2.0", "method": "window/showMessage", "params": ["type": 2, "message": .string(message)]])
        }
    }

    /// What to write to the client.
    package func takeOutput() -> Data {
        defer { output.removeAll(keepingCapacity: true) }
        return output
    }

    private func send(_ message: JSON) {
        output += MessageFramer.frame(message)
    }

    // MARK: - Messages

    enum ErrorCode {
        static let parseError = -32700
        static let invalidRequest = -32600
        static let methodNotFound = -32601
        static let invalidParams = -32602
        static let serverNotInitialized = -32002
    }

    private func handle(_ body: [UInt8]) {
        guard let message = JSON(parsing: Data(body)) else {
            send(Self.errorResponse(id: .null, code: ErrorCode.parseError, message: "the message is not JSON"))
            return
        }
        guard case .object = message, let method = message["method"]?.string else {
            // A response to a request of ours (we send none) or something that is no message.
            if message["id"] == nil || message["method"] != nil {
                send(Self.errorResponse(id: message["id"] ?? .null, code: ErrorCode.invalidRequest, message: "not a request or notification"))
            }
            return
        }
        let params = message["params"] ?? .null
        guard let id = message["id"] else {
            notification(method, params)
            return
        }
        switch id {
        case .number, .string: break
        default:
            send(Self.errorResponse(id: .null, code: ErrorCode.invalidRequest, message: "a request's id is a number or a string"))
            return
        }
        do {
            send(["jsonrpc": "2.0", "id": id, "result": try request(method, params)])
        } catch {
            send(Self.errorResponse(id: id, code: error.code, message: error.message))
        }
    }

    struct RequestError: Error {
        var code: Int
        var message: String
    }

    private func request(_ method: String, _ params: JSON) throws(RequestError) -> JSON {
        if method == "initialize" {
            guard stage == .starting else { throw RequestError(code: ErrorCode.invalidRequest, message: "initialize was already received") }
            stage = .running
            workspace.configure(params["initializationOptions"])
            return Capabilities.initializeResult
        }
        switch stage {
        case .starting: throw RequestError(code: ErrorCode.serverNotInitialized, message: "the server is not initialized yet")
        case .shutDown: throw RequestError(code: ErrorCode.invalidRequest, message: "the server is shutting down")
        case .running: break
        }
        // Answers read the latest text, not the last validation's.
        switch method {
        case "shutdown":
            stage = .shutDown
            return .null
        case "textDocument/completion": return try workspace.completion(try Self.place(params))
        case "textDocument/hover": return try workspace.hover(try Self.place(params), explanationsURL: configuration.explanationsURL)
        case "textDocument/definition": return try workspace.definition(try Self.place(params))
        case "textDocument/references": return try workspace.references(try Self.place(params), includeDeclaration: params["context"]?["includeDeclaration"]?.bool ?? true)
        case "textDocument/rename":
            guard let newName = params["newName"]?.string else { throw RequestError(code: ErrorCode.invalidParams, message: "rename needs newName") }
            return try workspace.rename(try Self.place(params), to: newName)
        case "textDocument/documentSymbol": return try workspace.symbols(try Self.uri(params))
        case "textDocument/codeAction": return try workspace.codeActions(try Self.uri(params), params["context"]?["diagnostics"]?.array ?? [])
        default: throw RequestError(code: ErrorCode.methodNotFound, message: "unknown method '\(method)'")
        }
    }

    private func notification(_ method: String, _ params: JSON) {
        if method == "exit" {
            exitStatus = stage == .shutDown ? 0 : 1
            return
        }
        guard stage == .running else { return }
        switch method {
        case "textDocument/didOpen":
            guard let item = params["textDocument"], let uri = item["uri"]?.string, let text = item["text"]?.string else { return }
            workspace.open(uri: uri, text: text, version: item["version"]?.int ?? 0)
        case "textDocument/didChange":
            guard let uri = params["textDocument"]?["uri"]?.string, let changes = params["contentChanges"]?.array else { return }
            // Full-text sync (the capability says so): the last change holds the whole text.
            guard let text = changes.last?["text"]?.string else { return }
            workspace.change(uri: uri, text: text, version: params["textDocument"]?["version"]?.int ?? 0)
        case "textDocument/didClose":
            guard let uri = params["textDocument"]?["uri"]?.string else { return }
            workspace.close(uri: uri)
        case "textDocument/didSave", "workspace/didChangeWatchedFiles":
            workspace.filesChanged()
        default:
            break  // `initialized`, `$/cancelRequest`, `$/setTrace` and the like need nothing
        }
    }

    private static func uri(_ params: JSON) throws(RequestError) -> String {
        guard let uri = params["textDocument"]?["uri"]?.string else { throw RequestError(code: ErrorCode.invalidParams, message: "textDocument.uri is missing") }
        return uri
    }

    private static func place(_ params: JSON) throws(RequestError) -> (uri: String, position: Position) {
        guard let position = Position(params["position"]) else { throw RequestError(code: ErrorCode.invalidParams, message: "position is missing") }
        return (try uri(params), position)
    }

    static func errorResponse(id: JSON, code: Int, message: String) -> JSON {
        ["jsonrpc": "2.0", "id": id, "error": ["code": .number(Double(code)), "message": .string(message)]]
    }
}
