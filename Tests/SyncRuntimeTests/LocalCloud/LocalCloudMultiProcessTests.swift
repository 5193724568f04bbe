import Foundation
import Testing
import SyncRuntime
import SyncLocalCloud

/// One LocalCloud file, several processes: each a device of some user.
@Suite("LocalCloud: one file, several processes")
struct LocalCloudMultiProcessTests {
    /// The probe executable beside the test bundle.
    static var probe: URL {
        let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }
        let products = bundle.map { URL(fileURLWithPath: $0.bundlePath).deletingLastPathComponent() }
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return products.appendingPathComponent("LocalCloudProbe")
    }

    /// Runs the probe without holding a thread while it works (the test pool has as many threads
    /// as the machine has cores, and a busy machine makes the probe slow): its output goes to a
    /// file, and its end resumes the caller. Returns what it printed, and fails the test on a
    /// status other than 0.
    static func run(_ arguments: [String]) async throws -> String {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString).log")
        try Data().write(to: log)
        defer { try? FileManager.default.removeItem(at: log) }
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = probe
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = output
        let status = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(status == 0, "\(text)")
        return text
    }

    @Test func aWriteInOneProcessIsReadInAnother() async throws {
        let harness = try CloudHarness(.file)
        let file = harness.folder.appendingPathComponent("cloud.sqlite").path
        // This process writes as alice's phone...
        let phone = try await harness.deviceWithZone("phone", "alice")
        try await phone.save([record("from-test", fields: ["title": .string("hello")])])
        // ...another process reads as alice's laptop, and writes back.
        let read = try await Self.run([file, "laptop", "alice", "read"])
        #expect(read == "from-test=\"hello\"\n")
        #expect(try await Self.run([file, "laptop", "alice", "save", "from-probe", "hi"]) == "saved 1\n")
        let changes = try await phone.allZoneChanges(myZone)
        #expect(changes.records.map(\.id.recordName).sorted() == ["from-probe", "from-test"])
    }

    @Test func processesWritingAtOnceLoseNothing() async throws {
        let harness = try CloudHarness(.file)
        let file = harness.folder.appendingPathComponent("cloud.sqlite").path
        _ = try await harness.deviceWithZone("phone", "alice")
        try await withThrowingTaskGroup(of: String.self) { writers in
            for index in 0..<3 {
                writers.addTask { try await Self.run([file, "device-\(index)", "alice", "save", "item\(index)", "x", "40"]) }
            }
            try await writers.waitForAll()
        }
        #expect(try harness.cloud.snapshot().zone("Zone", ofAccount: "alice")?.records.count == 120)
    }
}
