import Foundation
import SyncRuntime
import SyncLocalCloud

/// Encodes and decodes 100,000 records of a 20-field model through the generated bridge, beside
/// a hand-written bridge of the same model (each direction apart), a Mirror-based reflective
/// bridge and a Codable-through-JSON bridge (one encoder and decoder, one JSON pass each way):
/// the median of interleaved runs, in CPU time.
enum BridgeBenchmark {
    static let recordCount = 100_000
    /// Generated over hand-written, encode and decode each.
    static let withinHandWritten = 1.3
    /// Generated over Mirror and over Codable through JSON ("far ahead of Codable", the issue
    /// says). Not 10x: the hand-written floor itself is only 10-12x ahead of them here, so a
    /// generated bridge inside its 1.3x allowance can be 8x ahead; 5x is far ahead with room for
    /// the machine's noise, and the floor's own lead is printed beside it.
    static let targetSpeedup = 5.0
    static let runs = 7

    static func run() -> Bool {
        print("bridge: encode + decode \(recordCount) records of a 20-field model (median of \(runs) interleaved runs, range, CPU time)")
        let models = (0..<recordCount).map(BenchRecord.sample)
        let records = models.map { $0.makeRecord() }
        let twins = models.map(\.codableTwin)
        let json = JSONBridge<CodableBenchRecord>()

        // Each bridge must give back what it was given, or its time means nothing; the hand-written
        // one must write the very record the generated one does.
        precondition(try! BenchRecord(record: models[1].makeRecord()) == models[1], "generated bridge lost data")
        for index in 0..<12 {
            precondition(HandWrittenBridge.record(of: models[index]) == records[index], "the hand-written bridge writes another record")
            precondition(try! HandWrittenBridge.model(from: records[index]) == models[index], "the hand-written bridge lost data")
        }
        let reflected = try! ReflectiveBridge.decode(CodableBenchRecord.self, recordName: twins[1].recordName, fields: ReflectiveBridge.encode(twins[1]))
        precondition(reflected == twins[1], "reflective bridge lost data")
        precondition(try! json.decode(fields: json.encode(twins[1])) == twins[1], "JSON bridge lost data")

        var sink = 0
        let timings = Measurement.interleaved(runs: runs, [
            { for model in models { sink &+= model.makeRecord().fields.count } },
            { for model in models { sink &+= HandWrittenBridge.record(of: model).fields.count } },
            { for record in records { sink &+= try BenchRecord(record: record).title.utf8.count } },
            { for record in records { sink &+= try HandWrittenBridge.model(from: record).title.utf8.count } },
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
        let (encode, handEncode, decode, handDecode, reflective, viaJSON) = (timings[0], timings[1], timings[2], timings[3], timings[4], timings[5])
        let roundTrip = encode.median + decode.median
        let perRecord = { (seconds: Double) in String(format: "%6.2f us a record", seconds / Double(recordCount) * 1e6) }
        print("  generated encode       \(encode.description)   \(perRecord(encode.median))   \(String(format: "%.2fx", encode.median / handEncode.median)) the hand-written")
        print("  hand-written encode    \(handEncode.description)   \(perRecord(handEncode.median))")
        print("  generated decode       \(decode.description)   \(perRecord(decode.median))   \(String(format: "%.2fx", decode.median / handDecode.median)) the hand-written")
        print("  hand-written decode    \(handDecode.description)   \(perRecord(handDecode.median))")
        print("  Mirror + Decoder       \(reflective.description)   \(perRecord(reflective.median))   \(String(format: "%5.1fx", reflective.median / roundTrip)) the generated round trip")
        print("  Codable through JSON   \(viaJSON.description)   \(perRecord(viaJSON.median))   \(String(format: "%5.1fx", viaJSON.median / roundTrip)) the generated round trip")
        // The floor's own lead, for scale: the generated bridge can be no further ahead than the
        // hand-written one it is held within 1.3x of.
        let handRoundTrip = handEncode.median + handDecode.median
        print(String(format: "  (the hand-written round trip: %.1fx faster than Mirror, %.1fx than JSON)", reflective.median / handRoundTrip, viaJSON.median / handRoundTrip))
        let closeToHand = encode.median / handEncode.median <= withinHandWritten && decode.median / handDecode.median <= withinHandWritten
        let aheadOfReflection = reflective.median / roundTrip >= targetSpeedup && viaJSON.median / roundTrip >= targetSpeedup
        print("  target: generated encode and decode each within \(withinHandWritten)x the hand-written: \(Measurement.verdict(closeToHand))")
        print("  target: generated at least \(Int(targetSpeedup))x faster than the reflective and the JSON bridge: \(Measurement.verdict(aheadOfReflection))")
        return closeToHand && aheadOfReflection
    }
}
