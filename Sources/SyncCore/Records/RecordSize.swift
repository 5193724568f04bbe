/// A record's size as CloudKit's limits count it, in one place: the push sizes its requests with
/// it, the local store refuses a record over ``CloudKitLimits/maxRecordBytes`` at the write that
/// makes it, and LocalCloud enforces the limits with it.
///
/// Apple publishes no byte-exact rule. The measure is the record's fields, encrypted ones
/// included, in the runtime's compact binary form (`FieldsCodec`): each name and value, asset
/// contents excluded (an asset counts as its reference). It is computed without encoding.
public enum RecordSize {
    /// The size of a record: its plain and encrypted fields.
    public static func of(_ record: SyncRecord) -> Int {
        of(record.fields) + of(record.encryptedFields)
    }

    /// The size of a set of fields.
    public static func of(_ fields: RecordFields) -> Int {
        var total = varint(fields.count)
        for (name, value) in fields {
            total += string(name) + of(value)
        }
        return total
    }

    static func of(_ value: SyncFieldValue) -> Int {
        let tag = 1
        switch value {
        case .string(let text): return tag + string(text)
        case .int64, .double, .date: return tag + 8
        case .bytes(let bytes): return tag + varint(bytes.count) + bytes.count
        case .location: return tag + 16
        case .reference(let reference): return tag + string(reference.recordName) + 1
        case .asset(let asset): return tag + string(asset.fileURL.absoluteString)
        case .list(let items): return items.reduce(tag + varint(items.count)) { $0 + of($1) }
        }
    }

    private static func string(_ text: String) -> Int {
        let count = text.utf8.count
        return varint(count) + count
    }

    /// Bytes of a LEB128 varint.
    private static func varint(_ value: Int) -> Int {
        var remaining = UInt64(value)
        var bytes = 1
        while remaining >= 0x80 {
            remaining >>= 7
            bytes += 1
        }
        return bytes
    }
}
