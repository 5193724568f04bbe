import SyncCore

/// A JSON Schema (draft-07) of the schema language, for editors: with it a YAML language server
/// completes keys and type words, shows what each key means, and underlines misspelt keys as the
/// user types. Built from ``SchemaVocabulary``, so a key added to the language appears here without
/// a second list to forget.
///
/// It checks shape (keys, value kinds, enumerated words, name characters), not the cross-model
/// rules (references to existing models, scope combinations, publishing): `syncgen validate` stays
/// the authority, and a file the JSON Schema accepts may still have validator errors.
public enum JSONSchemaExport {
    public static func schemaLanguage() -> String {
        document.printed() + "\n"
    }

    static var document: JSONValue {
        [
            "$schema": "http://json-schema.org/draft-07/schema#",
            "title": "syncgen schema file (schema language version \(SchemaVocabulary.languageVersion))",
            "description": "Synced models for syncgen: one file of a schema folder. Reference: docs/SchemaReference.md.",
            "type": ["object", "null"],
            "properties": properties(SchemaVocabulary.fileKeys, fileKeys),
            "patternProperties": ["^" + SchemaVocabulary.extensionKeyPrefix: [
                "description": "Ignored by syncgen: a place for YAML anchors that fields alias.",
            ]],
            "additionalProperties": false,
            "required": ["models"],
            "definitions": [
                "model": model,
                "field": field,
                "fieldType": fieldType,
                "catalog": catalog,
            ],
        ]
    }

    // MARK: - Levels

    static let fileKeys: [String: JSONValue] = [
        "version": [
            "description": "Schema-language version; only \(SchemaVocabulary.languageVersion) is supported (the default).",
            "const": .int(SchemaVocabulary.languageVersion),
        ],
        "models": [
            "description": "Model name -> model. A model name is a Swift type name.",
            "type": ["object", "null"],
            "propertyNames": ["pattern": .string(SwiftNaming.typeNamePattern)],
            "additionalProperties": ["$ref": "#/definitions/model"],
        ],
    ]

    static var model: JSONValue {
        [
            "type": "object",
            "properties": properties(SchemaVocabulary.modelKeys, modelKeys),
            "additionalProperties": false,
            "required": ["fields"],
        ]
    }

    static let modelKeys: [String: JSONValue] = [
        "recordType": [
            "description": "The CloudKit record type (default: the model name).",
            "type": "string", "pattern": .string(CloudKitNaming.namePattern),
            "maxLength": .int(Int64(CloudKitNaming.maxNameLength)),
        ],
        "scopes": [
            "description": "Where records live: [private] (default), [private, shared] or [public].",
            "type": "array", "items": ["enum": words(ScopeName.self)], "uniqueItems": true, "minItems": 1,
        ],
        "shareable": [
            "description": "The model may be the root of a CKShare; needs 'shared' in scopes.",
            "type": "boolean",
        ],
        "parent": [
            "description": "The model whose records are this model's CKRecord.parent (share hierarchy).",
            "type": "string", "pattern": .string(SwiftNaming.typeNamePattern),
        ],
        "publishAs": [
            "description": "The public model this private draft publishes into, under the same recordName.",
            "type": "string", "pattern": .string(SwiftNaming.typeNamePattern),
        ],
        "catalog": [
            "description": "How a [public] model is read: desiredKeys, initialState, governed.",
            "$ref": "#/definitions/catalog",
        ],
        "unique": [
            "description": "Natural keys: a list of field names (one key), or a list of such lists (several keys). Records of one zone equal on a key converge to one.",
            "type": "array",
            "items": ["oneOf": [["type": "string"], ["type": "array", "items": ["type": "string"], "minItems": 1]]],
        ],
        "merge": [
            "description": "How a field both devices changed is settled, unless the field says otherwise.",
            "enum": .array(MergePolicyName.allCases.filter(\.isModelPolicy).map { .string($0.rawValue) }),
        ],
        "fields": [
            "description": "Field name -> type word, or -> { type: ..., ... }.",
            "type": ["object", "null"],
            "propertyNames": [
                "pattern": .string(CloudKitNaming.namePattern), "maxLength": .int(Int64(CloudKitNaming.maxNameLength)),
            ],
            "additionalProperties": ["$ref": "#/definitions/field"],
        ],
    ]

    static var field: JSONValue {
        [
            "oneOf": [
                ["$ref": "#/definitions/fieldType"],
                [
                    "type": "object",
                    "properties": properties(SchemaVocabulary.fieldKeys, fieldKeys),
                    "additionalProperties": false,
                    "required": ["type"],
                    "allOf": [
                        requires("to", whenTypeIs: .reference),
                        requires("of", whenTypeIs: .list),
                    ],
                ],
            ],
        ]
    }

    static let fieldType: JSONValue = [
        "description": "A field type (the shorthand 'name: TYPE').",
        "enum": words(FieldKind.self),
    ]

    static let fieldKeys: [String: JSONValue] = [
        "type": ["$ref": "#/definitions/fieldType"],
        "optional": ["description": "A Swift optional; a missing remote value decodes to nil.", "type": "boolean"],
        "default": ["description": "A literal of the field's type ('now' for a date: the moment of creation)."],
        "to": [
            "description": "The model a reference (or list of references) points at.",
            "type": "string", "pattern": .string(SwiftNaming.typeNamePattern),
        ],
        "onDelete": [
            "description": "What CloudKit does to this record when the target is deleted.",
            "enum": words(DeleteActionName.self),
        ],
        "of": [
            "description": "The element type of a list: a scalar type or reference.",
            "enum": .array(FieldKind.allCases.filter(\.isListElement).map { .string($0.rawValue) }),
        ],
        "encrypted": ["description": "Stored in CloudKit's encrypted values.", "type": "boolean"],
        "localOnly": ["description": "Kept on this device only: never uploaded, never overwritten by a pull.", "type": "boolean"],
        "serverOwned": ["description": "Never uploaded; always taken from the server on pull.", "type": "boolean"],
        "index": [
            "description": "CloudKit indexes (exported to the .ckdb schema).",
            "type": "array", "items": ["enum": words(IndexKind.self)],
        ],
        "merge": [
            "description": "How concurrent edits combine: lastWriterWins, serverWins, clientWins; union (lists); max, min (numbers, dates); custom (the model's own function).",
            "enum": words(MergePolicyName.self),
        ],
    ]

    static var catalog: JSONValue {
        [
            "type": ["object", "null"],
            "properties": properties(SchemaVocabulary.catalogKeys, catalogKeys),
            "additionalProperties": false,
        ]
    }

    static let catalogKeys: [String: JSONValue] = [
        "desiredKeys": [
            "description": "The fields a catalog query fetches: '\(SchemaVocabulary.automaticDesiredKeys)' or a list of field names.",
            "oneOf": [
                ["const": .string(SchemaVocabulary.automaticDesiredKeys)],
                ["type": "array", "items": ["type": "string"]],
            ],
        ],
        "initialState": [
            "description": "Whether a newly published record is visible at once (listed) or waits for review (delisted).",
            "enum": words(PublicationStateName.self),
        ],
        "governed": ["description": "Adds the publication-lifecycle fields.", "type": "boolean"],
    ]

    // MARK: - Building blocks

    /// The `properties` of one level, in the vocabulary's order; a key the vocabulary has but
    /// this file does not describe yet is still accepted (an editor must never flag a valid key).
    private static func properties(_ keys: [String], _ described: [String: JSONValue]) -> JSONValue {
        .object(keys.map { ($0, described[$0] ?? [:]) })
    }

    private static func words<Word: RawRepresentable & CaseIterable>(_: Word.Type) -> JSONValue where Word.RawValue == String {
        .array(Word.allCases.map { .string($0.rawValue) })
    }

    private static func requires(_ key: String, whenTypeIs kind: FieldKind) -> JSONValue {
        [
            "if": ["properties": ["type": ["const": .string(kind.rawValue)]], "required": ["type"]],
            "then": ["required": [.string(key)]],
        ]
    }
}
