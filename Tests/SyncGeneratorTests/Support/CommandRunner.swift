import Foundation

/// Runs the built `syncgen` executable the way a user or CI does, and captures what it prints.
struct CommandResult {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

enum Syncgen {
    /// The `syncgen` binary beside the test bundle in the build products folder.
    static var executable: URL {
        let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }
        let products = bundle.map { URL(fileURLWithPath: $0.bundlePath).deletingLastPathComponent() }
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return products.appendingPathComponent("syncgen")
    }

    static func run(_ arguments: [String], in directory: URL) throws -> CommandResult {
        try runProcess(executable, arguments, in: directory)
    }
}

/// Runs a program in `directory` and captures what it prints.
func runProcess(_ executable: URL, _ arguments: [String], in directory: URL) throws -> CommandResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // Read both pipes to the end before waiting, so a full pipe never blocks the child.
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(
        status: process.terminationStatus,
        standardOutput: String(decoding: outputData, as: UTF8.self),
        standardError: String(decoding: errorData, as: UTF8.self))
}

/// A fresh folder under the system's temporary folder, removed when the test is done with it.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("syncgen-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    @discardableResult
    func write(_ relativePath: String, _ text: String) throws -> URL {
        try write(relativePath, Data(text.utf8))
    }

    @discardableResult
    func write(_ relativePath: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }

    func makeFolder(_ relativePath: String) throws {
        try FileManager.default.createDirectory(at: url.appendingPathComponent(relativePath), withIntermediateDirectories: true)
    }
}
