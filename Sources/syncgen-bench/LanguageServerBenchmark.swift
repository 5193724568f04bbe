import SyncCore
import Foundation
import SchemaLanguageServer
import SyncGenerator

/// The language server on a workspace of 1,000 models (20 files of 50): a keystroke in one file
/// (the change received, the whole folder validated, every file's diagnostics published), and a
/// completion and a hover, beside the same folder's validation alone (`syncgen validate`'s
/// pipeline), in CPU time, the median of interleaved runs.
enum LanguageServerBenchmark {
    static let runs = 7
    /// A keystroke's whole round at most this long: typing runs ahead of no answer.
    static let keystrokeTarget = 0.1
    /// The server's own work beside validation: framing, positions, JSON.
    static let overValidation = 1.5

    /// Schema files served from memory.
    private struct Files: SchemaFileSystem {
        let texts: [String: String]
        func schemaFiles(in folder: String) -> [String] { texts.keys.filter { $0.hasPrefix(folder + "/") }.sorted() }
        func read(_ path: String) -> String? { texts[path] }
    }

    static func run() -> Bool {
        print("lsp: a keystroke in a workspace of 1,000 models in 20 files, beside validating the folder alone (median of \(runs) interleaved runs, CPU time)")
        let sources = SyntheticSchema.sources(modelCount: 1_000, modelsPerFile: 50).map { SchemaSource(path: "/bench/" + $0.path, bytes: $0.bytes) }
        let texts = Dictionary(uniqueKeysWithValues: sources.map { ($0.path, String(decoding: $0.bytes, as: UTF8.self)) })
        let server = LanguageServer(configuration: .init(fileSystem: Files(texts: texts)))
        let edited = sources[7].path
        let uri = URL(fileURLWithPath: edited).absoluteString
        var version = 0
        func send(_ message: String) {
            let body = Data(message.utf8)
            server.receive(Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
        }
        send(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
        send(#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"\#(uri)","languageId":"yaml","version":0,"text":\#(QuotedText.json(texts[edited]!))}}}"#)
        server.runPendingWork()
        _ = server.takeOutput()
        // Each keystroke adds a character to a field's name, then the next takes it away.
        let original = texts[edited]!
        let typed = original.replacingOccurrences(of: "title0:", with: "title0x:")
        let changes = [QuotedText.json(typed), QuotedText.json(original)]
        let timings = Measurement.interleaved(runs: runs, [
            { _ = SchemaPipeline().validate(sources) },
            {
                version += 1
                send(#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"\#(uri)","version":\#(version)},"contentChanges":[{"text":\#(changes[version % 2])}]}}"#)
                server.runPendingWork()
                precondition(!server.takeOutput().isEmpty)
            },
            {
                send(#"{"jsonrpc":"2.0","id":2,"method":"textDocument/completion","params":{"textDocument":{"uri":"\#(uri)"},"position":{"line":4,"character":8}}}"#)
                precondition(!server.takeOutput().isEmpty)
            },
            {
                send(#"{"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{"textDocument":{"uri":"\#(uri)"},"position":{"line":2,"character":4}}}"#)
                precondition(!server.takeOutput().isEmpty)
            },
        ])
        let (validate, keystroke, completion, hover) = (timings[0].median, timings[1].median, timings[2].median, timings[3].median)
        print("  validating the folder alone   \(timings[0].description)")
        print("  a keystroke, published        \(timings[1].description)   \(String(format: "%.2f", keystroke / validate))x validating alone")
        print("  a completion                  \(timings[2].description)")
        print("  a hover                       \(timings[3].description)")
        let checks = [
            (String(format: "a keystroke, a completion and a hover each under %.0f ms", keystrokeTarget * 1000), max(keystroke, completion, hover) <= keystrokeTarget),
            (String(format: "a keystroke within %.1fx validating the folder alone", overValidation), keystroke / validate <= overValidation),
        ]
        for (text, met) in checks { print("  target: \(text): \(Measurement.verdict(met))") }
        return checks.allSatisfy(\.1)
    }
}
