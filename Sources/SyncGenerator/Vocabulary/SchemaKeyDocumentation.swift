import SyncCore

/// The levels of a schema file, each with its keys (``SchemaVocabulary``).
package enum SchemaKeyLevel: Sendable, Hashable {
    case file, model, field, catalog

    /// The keys a mapping at this level may hold, in the vocabulary's order.
    package var keys: [String] {
        switch self {
        case .file: SchemaVocabulary.fileKeys
        case .model: SchemaVocabulary.modelKeys
        case .field: SchemaVocabulary.fieldKeys
        case .catalog: SchemaVocabulary.catalogKeys
        }
    }
}

extension SchemaVocabulary {
    /// What a key means, in one line: the JSON Schema export's description of it, and what the
    /// language server's completion and hover say.
    package static func documentation(ofKey key: String, at level: SchemaKeyLevel) -> String? {
        switch level {
        case .file:
            switch key {
            case "version": "Schema-language version; only \(SchemaVocabulary.languageVersion) is supported (the default)."
            case "models": "Model name -> model. A model name is a Swift type name."
            default: nil
            }
        case .model:
            switch key {
            case "description": "What the model is, for people: its Swift type's doc comment (Quick Help), the editor's hover, the diagram."
            case "recordType": "The CloudKit record type (default: the model name)."
            case "scopes": "Where records live: [private] (default), [private, shared] or [public]."
            case "shareable": "The model may be the root of a CKShare; needs 'shared' in scopes."
            case "parent": "The model whose records are this model's CKRecord.parent (share hierarchy)."
            case "zone": "The zone this model's private and shared records live in (default: the app's sync zone). A child lives in its parent's zone; a reference stays in its zone."
            case "publishAs": "The public model this private draft publishes into, under the same recordName."
            case "catalog": "How a [public] model is read: desiredKeys, initialState, governed."
            case "unique": "Natural keys: a list of field names (one key), or a list of such lists (several keys). Records of one zone equal on a key converge to one."
            case "merge": "How a field both devices changed is settled, unless the field says otherwise."
            case "fields": "Field name -> type word, or -> { type: ..., ... }."
            default: nil
            }
        case .field:
            switch key {
            case "type": "The field's type: \(FieldKind.allCases.map(\.rawValue).joined(separator: ", "))."
            case "description": "What the field holds, for people: its property's doc comment (Quick Help, completion) and the editor's hover."
            case "optional": "A Swift optional; a missing remote value decodes to nil."
            case "default": "A literal of the field's type ('now' for a date: the moment of creation)."
            case "to": "The model a reference (or list of references) points at."
            case "onDelete": "What CloudKit does to this record when the target is deleted."
            case "of": "The element type of a list: a scalar type or reference."
            case "cases": "The names an enum (or a list of enums) may hold: identifiers, each once, each a name or a name and what it means ('- urgent: Needed today'); a name another app version added is kept as it came."
            case "encrypted": "Stored in CloudKit's encrypted values."
            case "localOnly": "Kept on this device only: never uploaded, never overwritten by a pull."
            case "serverOwned": "Never uploaded; always taken from the server on pull."
            case "index": "CloudKit indexes (exported to the .ckdb schema)."
            case "maxBytes": "A data field's (or each element's) most bytes: says its values are small enough to live in the record, whose whole is limited to 1 MB. Bytes that can grow belong in an asset."
            case "recordKey": "The key the field is stored under in CloudKit and on the device (default: the field name): a field renamed in Swift keeps its deployed key, and every value written under it."
            case "deprecated": "Given up: true, or what to use instead. Kept in CloudKit and carried through every save, so an older app version's value is never lost; out of the initializer; reading it warns."
            case "merge": "How concurrent edits combine: lastWriterWins, serverWins, clientWins; union (lists); max, min (numbers, dates); counter (int, double: changes add up); text (string: edits merge); custom (the model's own function)."
            default: nil
            }
        case .catalog:
            switch key {
            case "desiredKeys": "The fields a catalog query fetches: '\(SchemaVocabulary.automaticDesiredKeys)' or a list of field names."
            case "initialState": "Whether a newly published record is visible at once (listed) or waits for review (delisted)."
            case "governed": "Adds the publication-lifecycle fields."
            default: nil
            }
        }
    }
}

/// A word of the schema language with what it means, in one line: what the language server's
/// completion shows beside it.
package protocol DocumentedWord: RawRepresentable, CaseIterable where RawValue == String {
    var documentation: String { get }
}

extension FieldKind: DocumentedWord {
    package var documentation: String {
        switch self {
        case .scalar(let scalar): scalar.facts.documentation
        case .reference: "A record of another model of the same zone: needs 'to'."
        case .list: "A list of one type: needs 'of' (any type but asset and list)."
        }
    }
}

extension ScopeName: DocumentedWord {
    package var documentation: String {
        switch self {
        case .private: "The user's own records, in their private database."
        case .shared: "Records others share with the user, in their shared database (with private)."
        case .public: "Records every user of the app can read, in the public database (alone)."
        }
    }
}

extension MergePolicyName: DocumentedWord {
    package var documentation: String {
        switch self {
        case .lastWriterWins: "The later edit's value (by its time on its device); ties go to the server."
        case .serverWins: "The value already in the cloud."
        case .clientWins: "The value of the device whose change meets the conflict."
        case .union: "Lists: every element either side added, none either side removed."
        case .max: "int, double, date: the larger value."
        case .min: "int, double, date: the smaller value."
        case .counter: "int, double: concurrent changes add up (the cloud's value plus this device's change since the version both started from)."
        case .text: "string: edits to different parts of the text are all kept; a part both changed keeps the later edit's text, kept for review as a conflict; two insertions at one place are both kept."
        case .custom: "What the model's own merge function says."
        }
    }
}

extension IndexKind: DocumentedWord {
    package var documentation: String {
        switch self {
        case .queryable: "CloudKit can find records by this field's value."
        case .sortable: "CloudKit can sort query results by this field."
        case .searchable: "CloudKit can search this text field's words."
        }
    }
}

extension DeleteActionName: DocumentedWord {
    package var documentation: String {
        switch self {
        case .none: "Deleting the target leaves this record as it is (the default)."
        case .deleteSelf: "Deleting the target deletes this record too."
        }
    }
}

extension PublicationStateName: DocumentedWord {
    package var documentation: String {
        switch self {
        case .listed: "A newly published record is visible at once."
        case .delisted: "A newly published record waits for review."
        }
    }
}
