import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud
import SyncTesting

/// The two ways LocalCloud stores its state: every LocalCloud test runs against both.
enum CloudMode: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory, file

    var testDescription: String { rawValue }
}

/// A LocalCloud, its clock, and a scratch folder removed at the end.
final class CloudHarness {
    let cloud: LocalCloud
    let clock = ManualClock()
    let folder: URL

    init(_ mode: CloudMode, configure: (inout LocalCloud.Configuration) -> Void = { _ in }) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("localcloud-\(UUID().uuidString)")
        var configuration = LocalCloud.Configuration(downloadsFolder: folder.appendingPathComponent("downloads"))
        configure(&configuration)
        switch mode {
        case .memory: cloud = try LocalCloud.inMemory(clock: clock, configuration: configuration)
        case .file: cloud = try LocalCloud.file(at: folder.appendingPathComponent("cloud.sqlite"), clock: clock, configuration: configuration)
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    func device(_ name: String, _ account: String?) throws -> LocalCloudDevice {
        try cloud.device(name, account: account)
    }

    /// A device signed in to `account`, with the zone `Zone` created in its private database.
    func deviceWithZone(_ name: String, _ account: String, zone: String = "Zone") async throws -> LocalCloudDevice {
        let device = try device(name, account)
        try await device.saveZones([ZoneID(zoneName: zone)])
        return device
    }
}

let myZone = ZoneID(zoneName: "Zone")

/// A record to save; `basedOn` a version the cloud returned, the save is conditional on it.
func record(_ name: String, type: String = "Item", in zone: ZoneID = myZone, fields: RecordFields = ["title": .string("t")], parent: String? = nil, basedOn server: SyncRecord? = nil) -> SyncRecord {
    var record = SyncRecord(recordType: type, id: RecordID(recordName: name, zoneID: zone), fields: fields, parentRecordName: parent)
    record.base(onServerVersionOf: server)
    return record
}

extension CloudGateway {
    /// Saves records and returns them as saved (with change tags), failing the test on any item error.
    @discardableResult
    func save(_ records: [SyncRecord], in scope: DatabaseScope = .private, policy: SavePolicy = .ifServerRecordUnchanged) async throws -> [SyncRecord] {
        let result = try await modify(ModifyRequest(recordsToSave: records, savePolicy: policy), in: scope)
        if let failure = result.partialFailure { throw failure }
        return try records.map { try result.savedRecords[$0.id]!.get() }
    }

    func delete(_ ids: [RecordID], in scope: DatabaseScope = .private) async throws -> ModifyResult {
        try await modify(ModifyRequest(recordIDsToDelete: ids), in: scope)
    }

    /// Every change of a zone since `token`, following `moreComing`.
    func allZoneChanges(_ zone: ZoneID, scope: DatabaseScope = .private, since token: ChangeToken? = nil, limit: Int? = nil) async throws -> (records: [SyncRecord], deleted: [DeletedRecord], token: ChangeToken, pages: Int) {
        var records: [SyncRecord] = []
        var deleted: [DeletedRecord] = []
        var current = token
        var pages = 0
        while true {
            let changes = try await fetchZoneChanges(in: zone, scope: scope, since: current, resultsLimit: limit)
            records += changes.changedRecords
            deleted += changes.deletedRecords
            current = changes.newToken
            pages += 1
            if !changes.moreComing { return (records, deleted, changes.newToken, pages) }
        }
    }
}

/// The error of a call that must fail.
func cloudError(_ body: () async throws -> Void) async -> CloudError? {
    do {
        try await body()
        return nil
    } catch let error as CloudError {
        return error
    } catch {
        return CloudError(.serviceUnavailable, "unexpected \(error)")
    }
}

extension ModifyResult {
    func error(_ id: RecordID) -> CloudError? {
        itemErrors[id]
    }
}

extension Result {
    /// The error of a failed result; nil for a success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
