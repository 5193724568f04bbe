import Foundation
import GeneratedCoverage
import Testing
import SyncRuntime

/// A store on a device with no room left: the app, started again, still shows the user's data.
/// The disk is made full for one process, the probe's, by the shell's file-size limit
/// (`ulimit -f`): SQLite can grow no file, so it cannot make the shared index of the log that it
/// keeps beside a store it opens to write, as on a full disk.
@Suite("Local store: a full disk")
struct FullDiskTests {
    /// The probe opens a store of three households under the limit, reads them, and tries to
    /// save one: the store opens to read only, says why, shows the three, and refuses the write
    /// as `.full`. Without the limit the same run writes. Breaking it (no second opening alone,
    /// in `SyncStore.init(url:)`) fails the opening itself: the user sees nothing.
    @Test func aStoreOnAFullDiskOpensToRead() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("store.sqlite")
        do {
            let store = try SyncStore(url: url)
            try store.save(["Home", "Cabin", "Flat"].map { Household(recordName: $0.lowercased(), name: $0) })
        }
        // Closed as a quit app leaves it: the log checkpointed, nothing beside the file.
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }

        let probe = ChildProcess.product("LocalCloudProbe").path
        let full = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "ulimit -f 1; trap '' XFSZ; exec \"$0\" store \"$1\"", probe, url.path])
        #expect(full.output == "opened without room: full\nhouseholds: Cabin,Flat,Home\nwrite: full\n", "\(full.output)\(full.errors)")

        let roomy = try await ChildProcess.run(URL(fileURLWithPath: probe), ["store", url.path])
        #expect(roomy.output == "opened without room: no\nhouseholds: Cabin,Flat,Home\nwrite: ok\n", "\(roomy.output)\(roomy.errors)")
    }
}
