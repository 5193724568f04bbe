import Foundation
import SyncRuntime
import SyncLocalCloud

/// Saves 100,000 records through LocalCloud in 400-item requests and fetches them back page by
/// page, in memory and on file: records per second, and memory. The client holds one page at a
/// time, so memory while fetching stays flat however many records there are; in memory, the
/// server's own tables are part of the process (on file they are on disk).
enum LocalCloudBenchmark {
    static let recordCount = 100_000
    static let pageSize = 400

    static func run() async -> Bool {
        print("localcloud: \(recordCount) records saved in \(pageSize)-item requests, fetched back in pages of \(pageSize)")
        print("  mode      save records/s  fetch records/s   RSS before   peak saving   peak fetching (above its start)")
        var bounded = true
        for mode in ["file", "memory"] {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("localcloud-bench-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            do {
                let configuration = LocalCloud.Configuration(downloadsFolder: folder.appendingPathComponent("downloads"))
                let cloud = mode == "memory"
                    ? try LocalCloud.inMemory(configuration: configuration)
                    : try LocalCloud.file(at: folder.appendingPathComponent("cloud.sqlite"), configuration: configuration)
                let device = try cloud.device("bench", account: "bench")
                let zone = ZoneID(zoneName: "Bench")
                try await device.saveZones([zone])
                Measurement.resetPeakMemory()
                let before = Measurement.currentMemoryMiB()
                let saveStart = DispatchTime.now().uptimeNanoseconds
                for start in stride(from: 0, to: recordCount, by: pageSize) {
                    let records = (start..<min(start + pageSize, recordCount)).map { index in
                        SyncRecord(recordType: "Item", id: RecordID(recordName: "item-\(index)", zoneID: zone), fields: [
                            "title": .string("Item \(index)"), "rank": .int64(Int64(index)), "done": .int64(0),
                            "note": .string(String(repeating: "n", count: 64)),
                        ])
                    }
                    let result = try await device.modify(ModifyRequest(recordsToSave: records), in: .private)
                    if let failure = result.partialFailure { throw failure }
                }
                let saveSeconds = Double(DispatchTime.now().uptimeNanoseconds - saveStart) / 1e9
                let peakSaving = Measurement.peakMemoryMiB()
                Measurement.resetPeakMemory()
                let fetchBase = Measurement.currentMemoryMiB()
                let fetchStart = DispatchTime.now().uptimeNanoseconds
                var token: ChangeToken?
                var fetched = 0
                while true {
                    let changes = try await device.fetchZoneChanges(in: zone, scope: .private, since: token, resultsLimit: pageSize)
                    fetched += changes.changedRecords.count
                    token = changes.newToken
                    if !changes.moreComing { break }
                }
                let fetchSeconds = Double(DispatchTime.now().uptimeNanoseconds - fetchStart) / 1e9
                let peakFetching = Measurement.peakMemoryMiB() - fetchBase
                precondition(fetched == recordCount, "fetched \(fetched) of \(recordCount)")
                // One page of records is well under 1 MiB; 32 MiB of slack covers SQLite's caches.
                bounded = bounded && peakFetching < 32
                print(String(
                    format: "  %-8@ %14.0f %16.0f %10.1f MiB %9.1f MiB %9.1f MiB",
                    mode as NSString, Double(recordCount) / saveSeconds, Double(recordCount) / fetchSeconds, before, peakSaving, peakFetching))
            } catch {
                print("  \(mode): failed: \(error)")
                return false
            }
        }
        print("  target: memory while fetching bounded by the page, not the record count: \(bounded ? "met" : "MISSED")")
        return bounded
    }
}
