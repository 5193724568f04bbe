import Foundation
import SchemaLanguageServer
import SyncGenerator
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `syncgen lsp`: the language server on standard input and output. Edits are validated once the
/// input is quiet (no byte waiting), so a burst of keystrokes costs one validation.
enum LanguageServerCommand {
    static func run(baseline: Baseline?) -> Int32 {
        let server = LanguageServer(configuration: .init(
            baseline: baseline,
            loadBaseline: { baseline, folder in
                do {
                    // The folder as git has it, in its own repository, wherever the editor started
                    // the server.
                    return try baseline.load(newPaths: ["."], in: folder)
                } catch let error as UsageError {
                    throw BaselineUnreadable(message: error.message)
                }
            }))
        let input = FileHandle.standardInput
        let output = FileHandle.standardOutput
        while server.exitStatus == nil {
            if server.hasPendingWork, !inputIsWaiting() {
                server.runPendingWork()
                output.write(server.takeOutput())
            }
            let bytes = input.availableData
            if bytes.isEmpty {
                server.endOfInput()
                break
            }
            server.receive(bytes)
            output.write(server.takeOutput())
        }
        output.write(server.takeOutput())
        return server.exitStatus ?? 1
    }

    struct BaselineUnreadable: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Whether standard input has bytes to read now.
    private static func inputIsWaiting() -> Bool {
        var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }
}
