import Foundation

/// Compiles generated Swift as an app's build would: `swiftc` in Swift 6 mode with warnings as
/// errors, as a module of its own against the SyncCore this test run built (so it sees only what
/// SyncCore makes public, as an app does). The compiler runs through SIL's mandatory passes,
/// where some diagnostics (a literal that underflows) are made; no object code is written.
struct GeneratedCodeCompiler: Sendable {
    /// The folder holding `SyncCore.swiftmodule`, beside the test bundle.
    let modules: URL

    init() throws {
        let modules = Syncgen.executable.deletingLastPathComponent().appendingPathComponent("Modules")
        guard FileManager.default.fileExists(atPath: modules.appendingPathComponent("SyncCore.swiftmodule").path) else {
            throw CompilerMissing(modules: modules.path)
        }
        self.modules = modules
    }

    struct CompilerMissing: Error, CustomStringConvertible {
        var modules: String
        var description: String { "no SyncCore.swiftmodule in \(modules): build the package's tests with `swift test`" }
    }

    /// Compiles `files` (name -> text) as the module `name`; the compiler's output when it
    /// fails or warns, nil when the module compiles clean.
    func compile(module name: String, files: [String: String]) async throws -> String? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("syncgen-compile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (file, text) in files {
            try Data(text.utf8).write(to: folder.appendingPathComponent(file))
        }
        let arguments = [
            "swiftc", "-emit-sil", "-wmo", "-o", "/dev/null", "-swift-version", "6", "-parse-as-library",
            "-warnings-as-errors", "-module-name", name, "-I", modules.path,
        ] + files.keys.sorted()
        let log = folder.appendingPathComponent("compiler.log")
        let status = try await run(arguments, in: folder, log: log)
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return status == 0 && !output.contains("warning:") ? nil : output
    }

    /// Runs a program without blocking a thread while it works: its output goes to a file, and
    /// its end resumes the caller.
    private func run(_ arguments: [String], in folder: URL, log: URL) async throws -> Int32 {
        try Data().write(to: log)
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.standardOutput = output
        process.standardError = output
        return try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }
}
