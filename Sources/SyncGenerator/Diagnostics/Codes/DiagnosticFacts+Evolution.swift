/// Schema evolution (against a baseline: CloudKit's production schema only grows).
extension DiagnosticFacts {
    static let recordTypeRemoved = DiagnosticFacts(
        .error,
        summary: "a record type of the baseline is gone (removed or renamed)",
        protects: "A record type deployed to production disappearing from the schema: production keeps it, and older app versions still use it.",
        fact: "CloudKit's production schema only grows.")

    static let fieldRemoved = DiagnosticFacts(
        .error,
        summary: "a field of the baseline is gone, or no longer uploaded",
        protects: "A deployed field disappearing (or turned local-only): production keeps it, and older app versions still write it.",
        fact: "CloudKit's production schema only grows.")

    static let fieldTypeChanged = DiagnosticFacts(
        .error,
        summary: "a field's type, list element type or reference target changed",
        protects: "A deployed field changing type: deployed records keep the old one, and CloudKit refuses a field with two types.",
        fact: "A CloudKit field's type is fixed once deployed.")

    static let databaseChanged = DiagnosticFacts(
        .error,
        summary: "a model moved between the public database and the private and shared ones",
        protects: "A model moved between the public database and the private ones: its deployed records stay where they are.",
        fact: "The public and private databases are separate stores.")

    static let encryptionChanged = DiagnosticFacts(
        .error,
        summary: "a field turned encrypted or unencrypted",
        protects: "A deployed field turning encrypted or plain, which CloudKit cannot do.",
        fact: "A CloudKit field's encryption is fixed once deployed.")

    static let requiredFieldAdded = DiagnosticFacts(
        .warning,
        summary: "a new required field: records and app versions from before lack it",
        protects: "A new required field that records from before, and older app versions' saves, do not have: they read as the type's zero value.",
        fact: "A field a record lacks comes back empty.")

    static let uniqueKeyAdded = DiagnosticFacts(
        .warning,
        summary: "a new natural key: older app versions still create the duplicates it merges",
        protects: "A new natural key: records from before may already hold duplicates, which merge when the new version syncs, and older app versions keep creating them.",
        fact: "Keys live in the apps, not in CloudKit: only app versions that know a key merge its duplicates. A key on a model new in the same version has no records from before (the fixed example); on an existing one, ship it when most users run a version that has it.")

    static let enumCaseRemoved = DiagnosticFacts(
        .error,
        summary: "an enum case is gone (removed or renamed): deployed records and older app versions still hold it",
        protects: "A case renamed or removed while records in the cloud, and the saves of older app versions, still hold its name: the new version reads them as `unknown`, and its code for the case never runs again.",
        fact: "An enum's cases only grow: a new case is safe (older versions keep it as `unknown` and write it back unchanged), a gone one is not.")

    static let fieldNarrowed = DiagnosticFacts(
        .warning,
        summary: "a field now reads its values as a narrower type (`string` to `url` or `uuid`, `int` to `bool`)",
        protects: "A field whose CloudKit type stays, but whose new type cannot read every value written before: a string that is no URL, a count that is no bool.",
        fact: "CloudKit keeps the values as they were written; the new type reads them as its facts say (docs/SchemaReference.md, Types). Convert the old values first, or add a field.")

    static let assetKeysMoved = DiagnosticFacts(
        .error,
        summary: "an asset field now travels under record keys another field (or no field) used",
        protects: "Files of deployed records read as another field's: the first asset field travels under `assetData` and its markers, each further one under its own name (`thumbnailAssetData`), so reordering asset fields, or adding one before the first, moves the keys.",
        fact: "A model's first asset field keeps the keys records carried while a model could hold one asset; a field's keys come from its place among the model's asset fields. Add asset fields after the others, and never reorder them.")

    static let zoneChanged = DiagnosticFacts(
        .error,
        summary: "a deployed model moved to another zone",
        protects: "A model whose deployed records stay in the zone it left: devices would stop seeing them, and edits would make second copies.",
        fact: "A record lives in the zone it was saved in; a schema change moves no record.")
}
