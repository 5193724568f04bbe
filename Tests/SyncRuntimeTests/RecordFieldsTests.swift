import Testing
import SyncRuntime
import SyncLocalCloud

@Suite("Record fields: a small ordered map of values by name")
struct RecordFieldsTests {
    @Test func setReplacesAndNilRemoves() {
        var fields: RecordFields = ["a": .int64(1), "b": .string("x")]
        fields["a"] = .int64(2)
        fields["c"] = .double(3)
        #expect(fields.names == ["a", "b", "c"])
        #expect(fields["a"] == .int64(2))
        fields["b"] = nil
        #expect(fields.names == ["a", "c"] && fields["b"] == nil)
        fields["missing"] = nil
        #expect(fields.count == 2)
    }

    @Test func equalityAndHashIgnoreOrder() {
        var forward = RecordFields()
        forward.append("a", .int64(1))
        forward.append("b", .int64(2))
        let backward: RecordFields = ["b": .int64(2), "a": .int64(1)]
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        #expect(forward != ["a": .int64(1)])
        #expect(forward != ["a": .int64(1), "b": .int64(3)])
    }

    @Test func encryptedValuesAreReadBeforePlainOnes() {
        let record = SyncRecord(
            recordType: "T", id: RecordID(recordName: "r", zoneID: SyncConstants.publicZone),
            fields: ["x": .string("plain"), "y": .string("only plain")], encryptedFields: ["x": .string("secret")])
        #expect(record[field: "x"] == .string("secret"))
        #expect(record[field: "y"] == .string("only plain"))
        #expect(record[field: "z"] == nil)
    }
}
