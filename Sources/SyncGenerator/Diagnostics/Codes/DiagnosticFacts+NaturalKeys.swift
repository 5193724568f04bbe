import SyncCore

/// Rule 16: natural keys and merges.
extension DiagnosticFacts {
    static let unknownKeyField = DiagnosticFacts(
        .error,
        summary: "a `unique` key names no field of the model, or no field at all",
        protects: "A natural key of a field that does not exist, usually a typo: no records would ever be one.",
        fact: "A key is made of fields of its model.")

    static let keyFieldNotShared = DiagnosticFacts(
        .error,
        summary: "a `unique` key field that is `localOnly`, `serverOwned` or `encrypted`",
        protects: "A key other devices cannot compare: a local-only field they never see, a server-owned one a new record lacks, an encrypted one the cloud cannot query.",
        fact: "Devices find each other's copies by the key's values.")

    static let keyFieldNotComparable = DiagnosticFacts(
        .error,
        summary: "a `unique` key field of a type that does not compare (\((ScalarType.allCases.filter { !$0.facts.isKeyComparable }.map(\.rawValue) + ["list"]).map { "`\($0)`" }.joined(separator: ", ")))",
        protects: "A key whose values two devices may not see as equal: a double's last bit, bytes, a file, a place, a list.",
        fact: "Keys are made of fields of these types: \(ValidationContext.comparableKeyTypes.map(\.rawValue).joined(separator: ", ")).")

    static let uniqueOnPublicModel = DiagnosticFacts(
        .error,
        summary: "`unique` on a public model",
        protects: "Merging public records of different users: no device may delete another user's public record.",
        fact: "Each public record belongs to the user who created it.")

    static let repeatedKeyField = DiagnosticFacts(
        .warning,
        summary: "a field named twice in one key, or one key given twice",
        protects: "A key written twice, or a field named twice in one, usually a leftover of an edit.",
        fact: "A key is a set of fields; keys are a set of keys.")

    static let unknownMergePolicy = DiagnosticFacts(
        .error,
        summary: "`merge` is not a merge policy",
        protects: "A misspelt merge policy, which would leave concurrent edits to the default.",
        fact: "The policies are lastWriterWins, serverWins, clientWins, union, max, min, counter, text and custom.")

    static let mergePolicyNotForType = DiagnosticFacts(
        .error,
        summary: "a merge policy the field's type does not take, or a field's policy on a model",
        protects: "A merge that cannot combine the field's values (a union of two strings, the larger of two bools), or a field's merge given to a whole model.",
        fact: "`union` merges lists; `max` and `min` numbers and dates; `counter` ints and doubles; `text` strings; a model's policy is lastWriterWins, serverWins or clientWins.")

    static let mergeOnDeviceField = DiagnosticFacts(
        .error,
        summary: "`merge` on a `localOnly` or `serverOwned` field, which is never merged",
        protects: "A merge of a field that is never merged: a pull never changes a local-only field, and a server-owned one is always the server's.",
        fact: "Only fields both a device and the cloud write can conflict.")

    static let mergeOnKeyField = DiagnosticFacts(
        .error,
        summary: "a `counter` or `text` merge on a field of a `unique` key",
        protects: "A key whose value a merge makes up: two devices change a counted or merged-text key field at once, the merge combines both changes, and the record's key is a value neither wrote, which may now equal another record's (or no longer equal its copy's).",
        fact: "Copies of one record are found by their key's values, which must be what a device wrote.")

    static let listWithoutMerge = DiagnosticFacts(
        .note,
        summary: "a list field without `merge`: a conflict keeps one side's whole list",
        protects: "An element lost without a word: two devices add to one list at once, and the conflict keeps one device's whole list, so what the other added is gone. It is a note: keeping one side's list may be what the app wants, and saying so silences it.",
        fact: "Without a field's `merge`, a conflict settles a list like any value, by the model's policy (`lastWriterWins` unless the model or the app's configuration says otherwise). `merge: union` keeps every element either side added and none either side removed.")
}
