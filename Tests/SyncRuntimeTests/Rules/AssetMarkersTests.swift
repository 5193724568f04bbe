import Foundation
@testable import SyncEngineKit
import SyncCore
import Testing

/// ``AssetMarkers`` on its own, in the transaction that applies a cloud version: a new file is
/// learned of, unchanged markers change nothing, other contents make this device's copy stale,
/// this device's file not uploaded yet wins, and markers gone take the entry with them.
@Suite("Rule: asset markers")
struct AssetMarkersTests {
    static let key = AssetKey(recordType: "Note", recordName: "n", field: "cover")

    static func version(_ cover: AssetReference?) -> SyncRecord {
        var note = Note(recordName: "n", title: "Hello")
        note.cover = cover
        return note.makeRecord()
    }

    /// Breaking it: a version whose markers are unchanged marking the copy stale downloads the
    /// same file again at every refresh (the second expectation's state becomes `remote`).
    @Test func aVersionsMarkersMeetTheCache() throws {
        let bench = try RuleBench(models: [Note.self])
        let rule = AssetMarkers(context: bench.context)
        let first = AssetReference(suffix: "jpg", byteSize: 10, digest: "d1")
        try bench.transaction { try rule.arrived(Self.version(first), in: $0) }
        #expect(try bench.transaction { try $0.assetEntry(Self.key) }.map { ($0.state, $0.digest) } ?? (.local, "") == (.remote, "d1"), "learned of")

        // This device downloaded it; the same markers again change nothing.
        try bench.transaction { store in
            var entry = try #require(try store.assetEntry(Self.key))
            entry.state = .cached
            try store.setAssetEntry(entry)
            try rule.arrived(Self.version(first), in: store)
        }
        #expect(try bench.transaction { try $0.assetEntry(Self.key) }?.state == .cached)

        // Other contents: the copy is stale.
        try bench.transaction { try rule.arrived(Self.version(AssetReference(suffix: "png", byteSize: 20, digest: "d2")), in: $0) }
        let stale = try #require(try bench.transaction { try $0.assetEntry(Self.key) })
        #expect(stale.state == .remote && stale.suffix == "png" && stale.digest == "d2")

        // A file this device attached and has not uploaded yet wins over what arrives.
        try bench.transaction { store in
            try store.setAssetEntry(AssetCacheEntry(key: Self.key, state: .local, suffix: "heic", byteSize: 5, digest: "mine"))
            try rule.arrived(Self.version(first), in: store)
        }
        #expect(try bench.transaction { try $0.assetEntry(Self.key) }?.digest == "mine")

        // Markers gone (the asset removed elsewhere), once this device's file went up: the entry goes.
        try bench.transaction { store in
            var entry = try #require(try store.assetEntry(Self.key))
            entry.state = .cached
            try store.setAssetEntry(entry)
            try rule.arrived(Self.version(nil), in: store)
        }
        #expect(try bench.transaction { try $0.assetEntry(Self.key) } == nil)
    }
}
