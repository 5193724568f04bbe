import Foundation
import SyncRuntime
import SyncLocalCloud

/// Encodes and decodes 100,000 records of a 20-field model through the generated bridge, a
/// Mirror-based reflective bridge and a Codable-through-JSON bridge (one encoder and decoder, one
/// JSON pass each way), side by side: the median of interleaved runs.
enum BridgeBenchmark {
    static let recordCount = 100_000
    static let targetSpeedup = 10.0
    static let runs = 5

    static func run() -> Bool {
        print("bridge: encode + decode \(recordCount) records of a 20-field model (median of \(runs) interleaved runs, range)")
        let models = (0..<recordCount).map(BenchRecord.sample)
        let twins = models.map(\.codableTwin)
        let json = JSONBridge<CodableBenchRecord>()

        // Each bridge must give back what it was given, or its time means nothing.
        precondition(try! BenchRecord(record: models[1].makeRecord()) == models[1], "generated bridge lost data")
        let reflected = try! ReflectiveBridge.decode(CodableBenchRecord.self, recordName: twins[1].recordName, fields: ReflectiveBridge.encode(twins[1]))
        precondition(reflected == twins[1], "reflective bridge lost data")
        precondition(try! json.decode(fields: json.encode(twins[1])) == twins[1], "JSON bridge lost data")

        var sink = 0
        let timings = Measurement.interleaved(runs: runs, [
            {
                for model in models {
                    let decoded = try BenchRecord(record: model.makeRecord())
                    sink &+= decoded.title.utf8.count
                }
            },
            {
                for twin in twins {
                    let decoded = try ReflectiveBridge.decode(CodableBenchRecord.self, recordName: twin.recordName, fields: ReflectiveBridge.encode(twin))
                    sink &+= decoded.title.utf8.count
                }
            },
            {
                for twin in twins {
                    let decoded = try json.decode(fields: json.encode(twin))
                    sink &+= decoded.title.utf8.count
                }
            },
        ])
        precondition(sink != 0)
        let (generated, reflective, viaJSON) = (timings[0], timings[1], timings[2])
        let rate = { (timing: Measurement.Timing) in String(format: "%10.0f records/s", Double(recordCount) / timing.median) }
        print("  generated bridge       \(generated.description)   \(rate(generated))")
        print("  Mirror + Decoder       \(reflective.description)   \(rate(reflective))   \(String(format: "%5.1fx slower", reflective.median / generated.median))")
        print("  Codable through JSON   \(viaJSON.description)   \(rate(viaJSON))   \(String(format: "%5.1fx slower", viaJSON.median / generated.median))")
        let met = reflective.median / generated.median >= targetSpeedup && viaJSON.median / generated.median >= targetSpeedup
        print("  target: generated at least \(Int(targetSpeedup))x faster than both: \(Measurement.verdict(met))")
        return met
    }
}
