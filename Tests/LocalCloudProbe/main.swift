import Foundation
import GeneratedCoverage
import SyncCore
import SyncPorts
import SyncLocalCloud
import SyncLocalStore

// A second process for the multi-process tests: opens a LocalCloud file as one device, or a store
// file as an app does (on a disk with no room left, started under `ulimit -f`).
//
//     LocalCloudProbe <cloud.sqlite> <device> <account> save <name> <title> [count]
//     LocalCloudProbe <cloud.sqlite> <device> <account> read
//     LocalCloudProbe store <store.sqlite>       (reads its households, then tries to save one)
let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "store" {
    do {
        let store = try SyncStore(url: URL(fileURLWithPath: arguments[2]))
        print("opened without room: \(store.openedWithoutRoom.map { "\($0.reason)" } ?? "no")")
        print("households: \(try store.fetchAll(Household.self).map(\.name).sorted().joined(separator: ","))")
        // A type this store never held: its table was never made, and cannot be without room.
        print("never stored: \(try store.count(Chore.self)), \(try store.fetchAll(Chore.self).count)")
        do {
            try store.save(Household(recordName: "written", name: "Written"))
            print("write: ok")
        } catch let error as LocalStoreError {
            print("write: \(error.reason)")
        }
    } catch {
        print("failed: \(error)")
    }
    exit(0)
}
guard arguments.count >= 5 else {
    FileHandle.standardError.write(Data("usage: LocalCloudProbe <cloud.sqlite> <device> <account> save|read ...\n".utf8))
    exit(2)
}
let zone = ZoneID(zoneName: "Zone")

func run() async throws {
    let cloud = try LocalCloud.file(at: URL(fileURLWithPath: arguments[1]))
    let device = try cloud.device(arguments[2], account: arguments[3])
    switch arguments[4] {
    case "save":
        try await device.saveZones([zone])
        let count = arguments.count > 7 ? Int(arguments[7]) ?? 1 : 1
        for index in 0..<count {
            let name = count == 1 ? arguments[5] : "\(arguments[5])-\(index)"
            let record = SyncRecord(recordType: "Item", id: RecordID(recordName: name, zoneID: zone), fields: ["title": .string(arguments[6])])
            let result = try await device.modify(ModifyRequest(recordsToSave: [record]), in: .private)
            if let failure = result.partialFailure { throw failure }
        }
        print("saved \(count)")
    case "read":
        var token: ChangeToken?
        while true {
            let changes = try await device.fetchZoneChanges(in: zone, scope: .private, since: token, resultsLimit: nil)
            for record in changes.changedRecords {
                print("\(record.id.recordName)=\(record.fields["title"].map { "\($0)" } ?? "")")
            }
            token = changes.newToken
            if !changes.moreComing { break }
        }
    default:
        FileHandle.standardError.write(Data("unknown command \(arguments[4])\n".utf8))
        exit(2)
    }
}

do {
    try await run()
} catch {
    FileHandle.standardError.write(Data("LocalCloudProbe: \(error)\n".utf8))
    exit(1)
}
