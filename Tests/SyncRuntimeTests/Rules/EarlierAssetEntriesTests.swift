import Foundation
@testable import SyncEngineKit
import SyncCore
import Testing

/// ``EarlierAssetEntries`` on its own: an entry written while a model held one asset names no
/// field, and becomes its model's first asset field's; one of a type the engine does not know
/// waits. (The file moves between the two steps are the asset phase's: `AssetFieldsTests`.)
@Suite("Rule: earlier asset entries")
struct EarlierAssetEntriesTests {
    static func entry(_ type: String, _ name: String, field: String = "") -> AssetCacheEntry {
        AssetCacheEntry(key: AssetKey(recordType: type, recordName: name, field: field), state: .local, suffix: "jpg", byteSize: 3)
    }

    /// Breaking it: naming the entry by its model's last asset field (`thumbnail`) rather than the
    /// one that travels under the record keys of the time (`cover`) fails the first expectation.
    @Test func anEntryWithoutAFieldBecomesTheFirstAssetFields() throws {
        let bench = try RuleBench(models: [Note.self])
        let rule = EarlierAssetEntries(context: bench.context)
        try bench.transaction { store in
            try store.setAssetEntry(Self.entry("Note", "n"))
            try store.setAssetEntry(Self.entry("Retired", "r"))
            try store.setAssetEntry(Self.entry("Note", "m", field: "thumbnail"))
        }
        let namings = try bench.transaction { try rule.namings(in: $0) }
        #expect(namings.map(\.named.key) == [AssetKey(recordType: "Note", recordName: "n", field: "cover")])
        try bench.transaction { store in
            for (entry, named) in namings { try rule.keyByField(entry, as: named, in: store) }
        }
        let (unnamed, named, retired, left) = try bench.transaction { store in
            (try store.assetEntry(AssetKey(recordType: "Note", recordName: "n", field: "")),
             try store.assetEntry(AssetKey(recordType: "Note", recordName: "n", field: "cover")),
             try store.assetEntry(AssetKey(recordType: "Retired", recordName: "r", field: "")),
             try rule.namings(in: store))
        }
        #expect(unnamed == nil && named?.suffix == "jpg" && left.isEmpty)
        #expect(retired != nil, "a type this engine does not know waits")
    }
}
