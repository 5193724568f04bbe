import Foundation
@testable import SyncEngineKit
import SyncCore
import Testing

/// ``UploadDevice`` on its own: the device's upload ID is made once, kept in the store, and the
/// same ever after. Breaking it (a new ID at each call): a save whose reply was lost no longer
/// finds itself among a record's uploads.
@Suite("Rule: upload device")
struct UploadDeviceTests {
    @Test func theIDIsMadeOnceAndKept() throws {
        let bench = try RuleBench(models: [])
        let first = try bench.transaction { try UploadDevice.id(in: $0) }
        #expect(!first.isEmpty)
        #expect(try bench.transaction { try UploadDevice.id(in: $0) } == first)
        #expect(try RuleBench(models: []).transaction { try UploadDevice.id(in: $0) } != first, "another store, another device")
    }
}
