import Foundation
import SyncRuntime
import SyncLocalCloud

/// Saves 100,000 records through LocalCloud in requests of `CloudKitLimits.maxItemsPerRequest` items and fetches them back page by
/// page, in memory and on file: records per second, and memory. The client holds one page at a
/// time, so memory while fetching stays flat however many records there are; in memory, the
/// server's own tables are part of the process (on file they are on disk).
enum LocalCloudBenchmark {
    static let recordCount = 100_000
    static let pageSize = CloudKitLimits.maxItemsPerRequest

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
                let saveStart = Measurement.now()
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
                let saveSeconds = Measurement.since(saveStart)
                let peakSaving = Measurement.peakMemoryMiB()
                Measurement.resetPeakMemory()
                let fetchBase = Measurement.currentMemoryMiB()
                let fetchStart = Measurement.now()
                var token: ChangeToken?
                var fetched = 0
                while true {
                    let changes = try await device.fetchZoneChanges(in: zone, scope: .private, since: token, resultsLimit: pageSize)
                    fetched += changes.changedRecords.count
                    token = changes.newToken
                    if !changes.moreComing { break }
                }
                let fetchSeconds = Measurement.since(fetchStart)
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
        let linear = await catalogPaging()
        return bounded && linear
    }

    /// A whole public catalog queried page by page, at 1,600 and 16,000 records: the time per
    /// record must not grow with the catalog (a query that re-read it for every page would cost
    /// the square of its size).
    private static func catalogPaging() async -> Bool {
        let sizes = [1_600, 16_000]
        let runs = 3
        print("  catalog query, paged by \(pageSize), at \(sizes.map(String.init).joined(separator: " and ")) records (median of \(runs) interleaved runs, range)")
        do {
            var devices: [any CloudGateway] = []
            for size in sizes {
                let cloud = try LocalCloud.inMemory(configuration: LocalCloud.Configuration(downloadsFolder: FileManager.default.temporaryDirectory.appendingPathComponent("catalog-bench-\(UUID().uuidString)")))
                let device = try cloud.device("bench", account: "bench")
                for start in stride(from: 0, to: size, by: pageSize) {
                    let records = (start..<min(start + pageSize, size)).map { index in
                        SyncRecord(recordType: "Listing", id: RecordID(recordName: "listing-\(index)", zoneID: SyncConstants.publicZone), fields: ["title": .string("Listing \(index)")])
                    }
                    _ = try await device.modify(ModifyRequest(recordsToSave: records), in: .public)
                }
                devices.append(device)
            }
            let timings = await Measurement.interleaved(runs: runs, zip(sizes, devices).map { size, device in
                {
                    var query = RecordQuery(recordType: "Listing", resultsLimit: pageSize)
                    var count = 0
                    repeat {
                        let page = try await device.query(query, in: .public)
                        count += page.records.count
                        query.cursor = page.cursor
                    } while query.cursor != nil
                    precondition(count == size)
                }
            })
            for (size, timing) in zip(sizes, timings) { print("    \(Measurement.pad(size, 6)) records   \(timing.description)") }
            let growth = timings[1].median / timings[0].median
            let met = growth <= 12
            print(String(format: "  target: 10x the catalog at most 12x the time (%.1fx): %@", growth, Measurement.verdict(met)))
            return met
        } catch {
            print("  catalog paging failed: \(error)")
            return false
        }
    }
}
