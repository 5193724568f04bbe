import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

@Suite("Asset cache: the state machine")
struct AssetCacheStateTests {
    /// Runs `events` from `start`, failing on any event the state does not allow.
    private func run(_ start: AssetCacheState, _ events: [AssetCacheEvent]) -> [AssetCacheState] {
        var states = [start]
        for event in events {
            guard let next = states.last!.after(event) else {
                Issue.record("\(event) is not allowed in \(states.last!)")
                return states
            }
            states.append(next)
        }
        return states
    }

    @Test func anAttachedFileUploads() {
        #expect(run(.local, [.recordPushed, .transferStarted, .transferSucceeded]) == [.local, .upload, .uploading, .cached])
    }

    @Test func aRemoteFileDownloads() {
        #expect(run(.remote, [.downloadRequested, .transferStarted, .transferSucceeded]) == [.remote, .download, .downloading, .cached])
    }

    @Test func anEvictedFileIsRemoteAgain() {
        #expect(run(.cached, [.evictionChosen, .evicted]) == [.cached, .unload, .remote])
    }

    @Test func failuresFallBack() {
        #expect(run(.local, [.recordPushed, .transferStarted, .transferFailed]) == [.local, .upload, .uploading, .local])
        #expect(run(.remote, [.downloadRequested, .transferStarted, .transferFailed]) == [.remote, .download, .downloading, .remote])
    }

    @Test func interruptedTransfersAreTakenUpAgain() {
        #expect(AssetCacheState.uploading.after(.interrupted) == .local)
        #expect(AssetCacheState.downloading.after(.interrupted) == .download)
        #expect(AssetCacheState.unload.after(.interrupted) == .remote)
    }

    @Test func aChangedFingerprintMakesTheCopyStale() {
        #expect(AssetCacheState.cached.after(.remoteChanged) == .remote)
        #expect(AssetCacheState.download.after(.remoteChanged) == .download)
    }

    @Test func whatCannotHappen() {
        // Nothing uploads before the record is pushed, and nothing skips a step.
        #expect(AssetCacheState.local.after(.transferStarted) == nil)
        #expect(AssetCacheState.local.after(.transferSucceeded) == nil)
        #expect(AssetCacheState.remote.after(.transferStarted) == nil)
        // A file the cloud does not have yet is never evicted.
        for state in [AssetCacheState.local, .upload, .uploading] {
            #expect(state.after(.evictionChosen) == nil)
            #expect(state.isAwaitingUpload)
        }
        #expect(AssetCacheState.cached.after(.downloadRequested) == nil)
    }

    @Test func attachingAlwaysStartsOver() {
        for state in AssetCacheState.allCases {
            #expect(state.after(.attached) == .local)
        }
    }
}

@Suite("Asset cache: files")
struct AssetFileStoreTests {
    private let key = AssetKey(recordType: "Note", recordName: "n1", field: "cover")

    /// A store in a fresh folder; the caller removes the folder.
    private func makeStore() -> (AssetFileStore, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("syncgen-files-\(UUID().uuidString)")
        return (AssetFileStore(root: root), root)
    }

    private func files(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test func filesLiveUnderTheRootByRecordTypeAndName() throws {
        let (store, root) = makeStore()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try store.write(Data("abc".utf8), for: key, suffix: "jpg") == AssetReference(suffix: "jpg", byteSize: 3, digest: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        #expect(store.fileURL(for: key, suffix: "jpg") == root.appendingPathComponent("Note.cover/n1.jpg"))
        #expect(try Data(contentsOf: store.fileURL(for: key, suffix: "jpg")) == Data("abc".utf8))
        #expect(files(in: root.appendingPathComponent("Note.cover")) == ["n1.jpg"])
    }

    /// Each asset field has a folder of its own; an entry written while a model held one asset
    /// names no field, and its file is where that version put it, until moved to its field's
    /// place. A move whose file is gone (moved already, before a crash) does nothing.
    @Test func eachFieldHasItsFolderAndAnEarlierFileMovesToItsField() throws {
        let (store, root) = makeStore()
        defer { try? FileManager.default.removeItem(at: root) }
        let thumbnail = AssetKey(recordType: "Note", recordName: "n1", field: "thumbnail")
        let earlier = AssetKey(recordType: "Note", recordName: "n1", field: "")
        _ = try store.write(Data("cover".utf8), for: key, suffix: "jpg")
        _ = try store.write(Data("thumbnail".utf8), for: thumbnail, suffix: "jpg")
        _ = try store.write(Data("earlier".utf8), for: earlier, suffix: "png")
        #expect(files(in: root) == ["Note", "Note.cover", "Note.thumbnail"])
        #expect(store.fileURL(for: earlier, suffix: "png") == root.appendingPathComponent("Note/n1.png"))
        #expect(try Data(contentsOf: store.fileURL(for: thumbnail, suffix: "jpg")) == Data("thumbnail".utf8))
        try store.moveFile(of: earlier, to: key, suffix: "png")
        #expect(try Data(contentsOf: store.fileURL(for: key, suffix: "png")) == Data("earlier".utf8))
        #expect(!store.fileExists(for: earlier, suffix: "png"))
        try store.moveFile(of: earlier, to: key, suffix: "png")
        #expect(try Data(contentsOf: store.fileURL(for: key, suffix: "png")) == Data("earlier".utf8))
    }

    @Test func recordNamesNeverEscapeTheirFolder() throws {
        let (store, root) = makeStore()
        defer { try? FileManager.default.removeItem(at: root) }
        let sneaky = AssetKey(recordType: "Note", recordName: "../../etc/passwd", field: "cover")
        _ = try store.write(Data("x".utf8), for: sneaky, suffix: "txt")
        let url = store.fileURL(for: sneaky, suffix: "txt")
        #expect(url.deletingLastPathComponent() == root.appendingPathComponent("Note.cover"))
        #expect(url.lastPathComponent == "%2E%2E%2F%2E%2E%2Fetc%2Fpasswd.txt")
    }

    // trap: T12.7
    @Test func aStagedDownloadIsNeverAtItsPlaceUntilMoved() throws {
        let (store, root) = makeStore()
        defer { try? FileManager.default.removeItem(at: root) }
        let download = root.appendingPathComponent("download.bin")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data(repeating: 7, count: 1000).write(to: download)
        let partial = try store.stage(download, for: key, suffix: "bin")
        #expect(!store.fileExists(for: key, suffix: "bin"))
        #expect(partial.deletingLastPathComponent() == root.appendingPathComponent("Note.cover"))
        #expect(partial.lastPathComponent.hasSuffix(".partial"))
        try store.moveIntoPlace(partial, for: key, suffix: "bin")
        #expect(try Data(contentsOf: store.fileURL(for: key, suffix: "bin")).count == 1000)
        #expect(files(in: root.appendingPathComponent("Note.cover")) == ["n1.bin"])
    }

    // trap: T12.7
    @Test func unfinishedWritesAreRemovedAndFinishedOnesKept() throws {
        let (store, root) = makeStore()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try store.write(Data("old".utf8), for: key, suffix: "jpg")
        let source = root.appendingPathComponent("new.jpg")
        try Data("new contents".utf8).write(to: source)
        _ = try store.stage(source, for: key, suffix: "jpg")  // the app ends here
        try store.removeUnfinishedWrites()
        #expect(files(in: root.appendingPathComponent("Note.cover")) == ["n1.jpg"])
        #expect(try Data(contentsOf: store.fileURL(for: key, suffix: "jpg")) == Data("old".utf8))
    }

    @Test func replacingAFileIsAtomic() throws {
        let (store, root) = makeStore()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try store.write(Data("first".utf8), for: key, suffix: "jpg")
        _ = try store.write(Data("second".utf8), for: key, suffix: "jpg")
        #expect(try Data(contentsOf: store.fileURL(for: key, suffix: "jpg")) == Data("second".utf8))
    }

    // trap: T12.6
    @Test func theDefaultRootIsDurable() throws {
        let home = URL(fileURLWithPath: "/home/someone")
        #if !canImport(Darwin)
        #expect(try AssetCacheLocation.defaultRoot(appName: "notes", environment: [:], home: home).path == "/home/someone/.local/share/notes/syncgen/Assets")
        #expect(try AssetCacheLocation.defaultRoot(appName: "notes", environment: ["XDG_DATA_HOME": "/data"], home: home).path == "/data/notes/syncgen/Assets")
        #endif
        let root = try AssetCacheLocation.defaultRoot()
        #expect(!AssetCacheLocation.isTemporary(root))
    }

    // trap: T12.6
    @Test func aTemporaryFolderIsRefusedRatherThanUsed() {
        let temporaryHome = FileManager.default.temporaryDirectory.appendingPathComponent("home")
        #if !canImport(Darwin)
        #expect(throws: AssetCacheLocation.NoDurableFolder.self) {
            try AssetCacheLocation.defaultRoot(appName: "notes", environment: [:], home: temporaryHome)
        }
        #expect(throws: AssetCacheLocation.NoDurableFolder.self) {
            try AssetCacheLocation.defaultRoot(appName: "notes", environment: ["XDG_DATA_HOME": "/tmp/data"], home: URL(fileURLWithPath: "/home/someone"))
        }
        #endif
        #expect(AssetCacheLocation.isTemporary(URL(fileURLWithPath: "/tmp/x")))
        #expect(!AssetCacheLocation.isTemporary(URL(fileURLWithPath: "/home/someone/.local/share")))
    }
}
