import SyncCore

/// Rule 17: CloudKit's limits.
extension DiagnosticFacts {
    static let dataFieldUnbounded = DiagnosticFacts(
        .warning,
        summary: "a `data` field without `maxBytes`: bytes that may grow, kept in the record",
        protects: "A record that grows past CloudKit's limit once a user stores a photo, a recording or an export in it: the save is refused, at run time, on the user's device. Such bytes belong in an `asset` field, whose file travels beside the record; small bytes (a hash, a key, a thumbnail's few hundred bytes) say how small with `maxBytes`.",
        fact: "CloudKit refuses a record over \(CloudKitLimits.maxRecordBytes / 1024 / 1024) MB, its fields' values together, asset contents excepted.")

    static let maxBytesInvalid = DiagnosticFacts(
        .error,
        summary: "`maxBytes` on a field that is not `data` (or a list of data), below 1, or over CloudKit's record limit",
        protects: "A limit that says nothing true: on text or numbers it limits nothing, and no value can be larger than the record that holds it.",
        fact: "`maxBytes` bounds a `data` field's value (each element's, for a list), from 1 byte to \(CloudKitLimits.maxRecordBytes) (a record's whole).")

    static let recordMayExceedLimit = DiagnosticFacts(
        .warning,
        summary: "a model whose `data` fields' `maxBytes` add up to more than a record may hold",
        protects: "A record that can be refused when each of its fields is within its own limit: CloudKit counts the record whole.",
        fact: "CloudKit refuses a record over \(CloudKitLimits.maxRecordBytes) bytes, its fields' values together, asset contents excepted.")
}
