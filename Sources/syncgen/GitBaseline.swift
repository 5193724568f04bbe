import Foundation
import SyncGenerator

/// Reads schema files as they are at a git commit, branch or tag, without touching the working
/// tree: `git ls-tree` finds them, `git cat-file` reads them. Each is named `REF:path`, so a
/// diagnostic about the baseline says which version it means.
enum GitBaseline {
    /// The schema files at `ref` under `paths` (files or folders, relative to `directory`, by
    /// default the current folder, as the new schema was named); none when `ref` has no schema
    /// there yet.
    static func load(ref: String, paths: [String], in directory: String? = nil) throws(UsageError) -> [SchemaSource] {
        guard !ref.hasPrefix("-") else { throw UsageError(message: "'\(ref)' is not a git ref") }
        func git(_ arguments: [String], failure: String) throws(UsageError) -> Data {
            try Self.git(arguments, in: directory, failure: failure)
        }
        _ = try git(["rev-parse", "--git-dir"], failure: "'--baseline-git' reads the git repository of the current folder, and there is none")
        _ = try git(["rev-parse", "--verify", "--quiet", "\(ref)^{commit}"], failure: "unknown git ref '\(ref)'")
        let listing = try git(["ls-tree", "-r", "--name-only", "-z", ref, "--"] + paths, failure: "cannot list '\(ref)'")
        let files = String(decoding: listing, as: UTF8.self).split(separator: "\0").map(String.init).filter(isSchemaFile)
        var sources: [SchemaSource] = []
        for file in files.sorted() {
            let bytes = try git(["cat-file", "blob", "\(ref):./\(file)"], failure: "cannot read '\(file)' at '\(ref)'")
            sources.append(SchemaSource(path: "\(ref):\(file)", bytes: Array(bytes)))
        }
        return sources
    }

    /// The rule `SchemaFiles` applies to folders: `*.yaml` / `*.yml`, nothing hidden.
    private static func isSchemaFile(_ path: String) -> Bool {
        let components = path.split(separator: "/")
        let isHidden = components.contains { $0.hasPrefix(".") && $0 != ".." }
        guard !isHidden, let name = components.last else { return false }
        return SchemaFiles.extensions.contains(URL(fileURLWithPath: String(name)).pathExtension.lowercased())
    }

    /// Runs git in `directory` (nil: the current folder) and returns what it printed; a failure is
    /// a usage error carrying git's own first line of complaint.
    private static func git(_ arguments: [String], in directory: String?, failure: String) throws(UsageError) -> Data {
        let process = Process()
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory, isDirectory: true) }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw UsageError(message: "\(failure): cannot run git (\(error.localizedDescription))")
        }
        // Read both pipes to the end before waiting, so a full pipe never blocks git.
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let reason = complaint.split(separator: "\n").first.map { " (git: \($0))" } ?? ""
            throw UsageError(message: failure + reason)
        }
        return printed
    }
}
