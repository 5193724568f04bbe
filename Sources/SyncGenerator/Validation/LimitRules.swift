import SyncCore

/// Rule 17: CloudKit's limits. A record is at most `CloudKitLimits.maxRecordBytes`, its uploaded
/// values together: bytes that may grow belong in an asset, and a `data` field says how small its
/// values are (`maxBytes`).
extension ValidationContext {
    mutating func checkLimits() {
        for id in allModelIDs {
            let model = model(id)
            var bounded: Int64 = 0
            for fieldID in fieldIDs(of: id) {
                let field = field(fieldID)
                guard let type = fieldTypes[fieldID] else { continue }
                let isData = type.valueScalar == .data
                if let maxBytes = field.maxBytes {
                    if !isData {
                        report(Diagnostic(.maxBytesInvalid, "'maxBytes' bounds a data field's bytes, but \(field.subject(inModel: model.name.value)) is \(type)", at: maxBytes.location))
                    } else if !(1...Int64(CloudKitLimits.maxRecordBytes)).contains(maxBytes.value) {
                        report(Diagnostic(.maxBytesInvalid, "'maxBytes' of \(field.subject(inModel: model.name.value)) is \(maxBytes.value): a value holds from 1 byte to \(CloudKitLimits.maxRecordBytes), a whole record", at: maxBytes.location))
                    } else if type.scalar == .data, !field.isLocalOnly {
                        bounded += maxBytes.value
                    }
                } else if isData, !field.isLocalOnly {
                    report(Diagnostic(
                        .dataFieldUnbounded,
                        "\(field.subject(inModel: model.name.value)) keeps bytes in the record, which CloudKit limits to \(CloudKitLimits.maxRecordBytes / 1024 / 1024) MB whole: make it an 'asset' if it holds files (photos, audio, documents), or say how small its values are with 'maxBytes'",
                        at: field.name.location))
                }
            }
            if bounded > Int64(CloudKitLimits.maxRecordBytes) {
                report(Diagnostic(
                    .recordMayExceedLimit,
                    "the data fields of model '\(model.name.value)' may hold \(bounded) bytes together ('maxBytes'), more than the \(CloudKitLimits.maxRecordBytes) CloudKit keeps in one record: move the larger ones to 'asset' fields",
                    at: model.name.location))
            }
        }
    }
}
