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

    static func start(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = probe
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        return (process, output)
    }

    static func run(_ arguments: [String]) throws -> String {
        let (process, output) = try start(arguments)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        return text
    }

    @Test func aWriteInOneProcessIsReadInAnother() async throws {
        let harness = try CloudHarness(.file)
        let file = harness.folder.appendingPathComponent("cloud.sqlite").path
        // This process writes as alice's phone...
        let phone = try await harness.deviceWithZone("phone", "alice")
        try await phone.save([record("from-test", fields: ["title": .string("hello")])])
        // ...another process reads as alice's laptop, and writes back.
        let read = try Self.run([file, "laptop", "alice", "read"])
        #expect(read == "from-test=\"hello\"\n")
        #expect(try Self.run([file, "laptop", "alice", "save", "from-probe", "hi"]) == "saved 1\n")
        let changes = try await phone.allZoneChanges(myZone)
        #expect(changes.records.map(\.id.recordName).sorted() == ["from-probe", "from-test"])
    }

    @Test func processesWritingAtOnceLoseNothing() async throws {
        let harness = try CloudHarness(.file)
        let file = harness.folder.appendingPathComponent("cloud.sqlite").path
        _ = try await harness.deviceWithZone("phone", "alice")
        let writers = try (0..<3).map { index in try Self.start([file, "device-\(index)", "alice", "save", "item\(index)", "x", "40"]) }
        for (process, output) in writers {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(text)")
        }
        #expect(try harness.cloud.snapshot().zone("Zone", ofAccount: "alice")?.records.count == 120)
    }
}
