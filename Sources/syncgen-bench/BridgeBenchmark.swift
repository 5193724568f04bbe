import Foundation
import SyncRuntime
import SyncLocalCloud

/// Encodes and decodes 100,000 records of a 20-field model through the generated bridge, a
/// Mirror-based reflective bridge and a Codable-through-JSON bridge, side by side.
enum BridgeBenchmark {
    static let recordCount = 100_000
    static let targetSpeedup = 10.0

    static func run() -> Bool {
        print("bridge: encode + decode \(recordCount) records of a 20-field model, best of 3")
        let models = (0..<recordCount).map(BenchRecord.sample)
        let twins = models.map(\.codableTwin)
        let json = JSONBridge(prototype: twins[0])

        // Each bridge must give back what it was given, or its time means nothing.
        precondition(try! BenchRecord(record: models[1].makeRecord()) == models[1], "generated bridge lost data")
        let reflected = try! ReflectiveBridge.decode(CodableBenchRecord.self, recordName: twins[1].recordName, fields: ReflectiveBridge.encode(twins[1]))
        precondition(reflected == twins[1], "reflective bridge lost data")
        precondition(try! json.decode(recordName: twins[1].recordName, fields: json.encode(twins[1])) == twins[1], "JSON bridge lost data")

        var sink = 0
        let generated = Measurement.bestSeconds(runs: 3) {
            for model in models {
                let record = model.makeRecord()
                let decoded = try! BenchRecord(record: record)
                sink &+= decoded.title.utf8.count
            }
        }
        let reflective = Measurement.bestSeconds(runs: 3) {
            for twin in twins {
                let fields = ReflectiveBridge.encode(twin)
                let decoded = try! ReflectiveBridge.decode(CodableBenchRecord.self, recordName: twin.recordName, fields: fields)
                sink &+= decoded.title.utf8.count
            }
        }
        let viaJSON = Measurement.bestSeconds(runs: 3) {
            for twin in twins {
                let fields = try! json.encode(twin)
                let decoded = try! json.decode(recordName: twin.recordName, fields: fields)
                sink &+= decoded.title.utf8.count
            }
        }
        precondition(sink != 0)
        let rate = { (seconds: Double) in String(format: "%10.0f records/s", Double(recordCount) / seconds) }
        print("  generated bridge       \(Measurement.milliseconds(generated))   \(rate(generated))")
        print("  Mirror + Decoder       \(Measurement.milliseconds(reflective))   \(rate(reflective))   \(String(format: "%5.1fx slower", reflective / generated))")
        print("  Codable through JSON   \(Measurement.milliseconds(viaJSON))   \(rate(viaJSON))   \(String(format: "%5.1fx slower", viaJSON / generated))")
        let met = reflective / generated >= targetSpeedup && viaJSON / generated >= targetSpeedup
        print("  target: generated at least \(Int(targetSpeedup))x faster than both: \(met ? "met" : "MISSED")")
        return met
    }
}
