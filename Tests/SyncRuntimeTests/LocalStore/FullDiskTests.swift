import Foundation
import GeneratedCoverage
import Testing
import SyncRuntime

/// A store that cannot be written, and a path that is no store: the app, started again, still
/// shows the user's data, and every refusal says why.
/// The disk is made full for one process, the probe's, by the shell's file-size limit
/// (`ulimit -f`): SQLite can grow no file, so it cannot make the shared index of the log that it
/// keeps beside a store it opens to write, as on a full disk.
@Suite("Local store: a full disk, a read-only volume, a path that is no store")
struct FullDiskTests {
    /// Whether this process can mount a file system (Linux, as root: CI's machine); elsewhere the
    /// read-only volume's test does not run.
    static let canMount: Bool = {
        #if os(Linux)
        return getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/mount")
        #else
        return false
        #endif
    }()

    /// Runs `mount` or `umount` with `arguments`; whether it succeeded.
    @discardableResult
    static func mount(_ tool: String, _ arguments: [String]) async throws -> Bool {
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/bin/\(tool)"), arguments)
        return result.status == 0
    }

    /// A store on a volume mounted read-only opens to read, as one on a full disk does: reason
    /// `.readOnly`, every read works, a write throws `.readOnly`. Breaking it (issue 57): the
    /// opening itself fails, and the user sees nothing.
    @Test(.enabled(if: canMount)) func aStoreOnAReadOnlyVolumeOpensToRead() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readonly-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard try await Self.mount("mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", folder.path]) else { return }
        let url = folder.appendingPathComponent("store.sqlite")
        do {
            let store = try SyncStore(url: url)
            try store.save(["Home", "Cabin"].map { Household(recordName: $0.lowercased(), name: $0) })
        }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        #expect(try await Self.mount("mount", ["-o", "remount,ro", folder.path]))
        do {
            let store = try SyncStore(url: url)
            #expect(store.openedToRead?.reason == .readOnly, "\(String(describing: store.openedToRead))")
            #expect(store.openedWithoutRoom == nil)
            #expect(try store.fetchAll(Household.self).map(\.name).sorted() == ["Cabin", "Home"])
            #expect(try store.count(Chore.self) == 0)
            #expect(throws: LocalStoreError.self) { try store.save(Household(recordName: "x", name: "X")) }
            do {
                try store.save(Household(recordName: "x", name: "X"))
            } catch let error as LocalStoreError {
                #expect(error.reason == .readOnly, "\(error)")
            }
        }
        try await Self.mount("umount", [folder.path])
    }

    /// A path that is a device, a folder or a pipe is no store, and opening one says so (issue 57:
    /// `/dev/null` was refused as a full device).
    @Test func aPathThatIsNoStoreIsRefusedAsSuch() throws {
        do {
            _ = try SyncStore(url: URL(fileURLWithPath: "/dev/null"))
            Issue.record("/dev/null opened as a store")
        } catch let error as LocalStoreError {
            #expect(error.reason == .other && error.message.contains("not a store: it is a device"), "\(error)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            _ = try SyncStore(url: folder)
            Issue.record("a folder opened as a store")
        } catch let error as LocalStoreError {
            #expect(error.reason == .other && error.message.contains("it is a folder"), "\(error)")
        }
    }

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
        // A type never stored reads as none (issue 57: its table's making threw `.full`).
        #expect(full.output == "opened without room: full\nhouseholds: Cabin,Flat,Home\nnever stored: 0, 0\nwrite: full\n", "\(full.output)\(full.errors)")

        let roomy = try await ChildProcess.run(URL(fileURLWithPath: probe), ["store", url.path])
        #expect(roomy.output == "opened without room: no\nhouseholds: Cabin,Flat,Home\nnever stored: 0, 0\nwrite: ok\n", "\(roomy.output)\(roomy.errors)")
    }
}
