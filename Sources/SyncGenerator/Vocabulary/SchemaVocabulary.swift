import SyncCore

/// The words of the schema language, in one place: the keys allowed at each level and the values
/// of every enumerated key. The parser, the validator, the suggestions and the exports all read
/// them from here.
package enum SchemaVocabulary {
    /// The only schema-language version this syncgen reads.
    package static let languageVersion: Int64 = 1

    package static let fileKeys = ["version", "models"]
    /// Top-level keys starting with this are ignored, so a file can define anchors under them
    /// (`x-text: &text { type: string, optional: true }`) and alias them in fields.
    package static let extensionKeyPrefix = "x-"
    /// How a diagnostic names the zone a model's records live in: the `zone` it names, or the app's
    /// sync zone when it names none (`SyncConfiguration.syncZoneName`, which the schema cannot know).
    static func describeZone(_ zone: String?) -> String {
        zone.map { "zone '\($0)'" } ?? "the app's sync zone"
    }

    package static let modelKeys = ["description", "recordType", "scopes", "shareable", "parent", "zone", "publishAs", "catalog", "unique", "merge", "fields"]
    package static let fieldKeys = [
        "type", "description", "optional", "default", "to", "onDelete", "of", "cases", "encrypted", "localOnly", "serverOwned", "index", "merge", "recordKey", "maxBytes", "deprecated",
    ]
    package static let catalogKeys = ["desiredKeys", "initialState", "governed"]

    /// `desiredKeys: auto`.
    package static let automaticDesiredKeys = "auto"
    /// `default: now` on a date field: the moment the value is created.
    package static let nowDefault = "now"
}

/// A field's type word: a scalar type's (SyncCore's `ScalarType`, whose facts say the rest),
/// `reference` or `list`.
package enum FieldKind: RawRepresentable, CaseIterable, Sendable, Hashable {
    case scalar(ScalarType)
    case reference, list

    package static var allCases: [FieldKind] { ScalarType.allCases.map(FieldKind.scalar) + [.reference, .list] }

    package init?(rawValue: String) {
        switch rawValue {
        case "reference": self = .reference
        case "list": self = .list
        default:
            guard let scalar = ScalarType(rawValue: rawValue) else { return nil }
            self = .scalar(scalar)
        }
    }

    package var rawValue: String {
        switch self {
        case .scalar(let scalar): scalar.rawValue
        case .reference: "reference"
        case .list: "list"
        }
    }

    /// The type a word from another schema language means here (`integer`, `text`, `boolean`,
    /// `timestamp`...), for "did you mean" when the word is no type of ours. Only the scalar
    /// types: a word is looked up lowercased, and close misspellings of these words count too
    /// (`integr`).
    package static let synonyms: [String: ScalarType] = [
        "integer": .int, "int64": .int, "int32": .int, "long": .int, "number": .int, "bigint": .int,
        "text": .string, "str": .string, "varchar": .string, "char": .string,
        "float": .double, "real": .double, "decimal": .double, "number64": .double,
        "boolean": .bool,
        "datetime": .date, "timestamp": .date, "time": .date,
        "bytes": .data, "blob": .data, "binary": .data,
        "file": .asset,
        "uri": .url, "link": .url,
    ]

    /// Types a list may hold: the scalar types whose facts allow it, and references; never lists.
    package var isListElement: Bool {
        switch self {
        case .scalar(let scalar): scalar.facts.isListElement
        case .reference: true
        case .list: false
        }
    }
}

/// A database a model's records may live in.
package enum ScopeName: String, CaseIterable, Sendable, Hashable {
    case `private`, shared, `public`
}

/// What CloudKit does to a referencing record when its target is deleted.
package enum DeleteActionName: String, CaseIterable, Sendable, Hashable {
    case none, deleteSelf
}

/// A schema index (exported to CloudKit's schema; no effect on generated code).
package enum IndexKind: String, CaseIterable, Sendable, Hashable {
    case queryable, sortable, searchable
}

/// How concurrent edits combine: a model's `merge:` takes the first three, a field's any of them.
package enum MergePolicyName: String, CaseIterable, Sendable, Hashable {
    case lastWriterWins, serverWins, clientWins, union, max, min, counter, text, custom

    /// The policies a whole model can have; the rest combine values of one type.
    package var isModelPolicy: Bool { [.lastWriterWins, .serverWins, .clientWins].contains(self) }

    /// The policies whose merged value combines both sides' changes, a value neither side wrote:
    /// a natural key's field takes none of them.
    package var combinesChanges: Bool { self == .counter || self == .text }
}

/// Whether a newly published catalog record is visible at once or waits for review.
package enum PublicationStateName: String, CaseIterable, Sendable, Hashable {
    case listed, delisted
}
