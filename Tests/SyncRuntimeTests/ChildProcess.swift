import Foundation

/// An executable of this package, run beside the tests as a user runs it (the LocalCloud probe,
/// `syncgen-inspect`), without holding a thread while it works: the test pool has as many threads
/// as the machine has cores, and a busy machine makes a child slow. Its output goes to files, and
/// its end resumes the caller.
enum ChildProcess {
    struct Run {
        let status: Int32
        let output: String
        let errors: String
    }

    /// The product of that name beside the test bundle.
    static func product(_ name: String) -> URL {
        let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }
        let products = bundle.map { URL(fileURLWithPath: $0.bundlePath).deletingLastPathComponent() }
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return products.appendingPathComponent(name)
    }

    static func run(_ executable: URL, _ arguments: [String]) async throws -> Run {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (out, err) = (folder.appendingPathComponent("out"), folder.appendingPathComponent("err"))
        try Data().write(to: out)
        try Data().write(to: err)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        let status = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        return Run(status: status, output: try String(contentsOf: out, encoding: .utf8), errors: try String(contentsOf: err, encoding: .utf8))
    }
}
