import Foundation
import SyncCore
import SyncPorts
import SyncLocalCloud

// A second process for LocalCloud's multi-process tests: opens a LocalCloud file as one device.
//
//     LocalCloudProbe <cloud.sqlite> <device> <account> save <name> <title> [count]
//     LocalCloudProbe <cloud.sqlite> <device> <account> read
let arguments = CommandLine.arguments
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
