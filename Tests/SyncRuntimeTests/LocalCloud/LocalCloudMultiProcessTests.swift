import Foundation
import Testing
import SyncRuntime
import SyncLocalCloud

/// One LocalCloud file, several processes: each a device of some user.
@Suite("LocalCloud: one file, several processes")
struct LocalCloudMultiProcessTests {
    /// Runs the probe; returns what it printed, and fails the test on a status other than 0.
    static func run(_ arguments: [String]) async throws -> String {
        let run = try await ChildProcess.run(ChildProcess.product("LocalCloudProbe"), arguments)
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        return run.output + run.errors
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
