import SyncCore

/// A JSON Schema (draft-07) of the schema language, for editors: with it a YAML language server
/// completes keys and type words, shows what each key means, and underlines misspelt keys as the
/// user types. Built from ``SchemaVocabulary``, so a key added to the language appears here without
/// a second list to forget.
///
/// It checks shape (keys, value kinds, enumerated words, name characters), not the cross-model
/// rules (references to existing models, scope combinations, publishing): `syncgen validate` stays
/// the authority, and a file the JSON Schema accepts may still have validator errors.
package enum JSONSchemaExport {
    package static func schemaLanguage() -> String {
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
            "description": .string(doc("version", .file)),
            "const": .int(SchemaVocabulary.languageVersion),
        ],
        "models": [
            "description": .string(doc("models", .file)),
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
        "description": ["description": .string(doc("description", .model)), "type": ["string", "number", "boolean"]],
        "recordType": [
            "description": .string(doc("recordType", .model)),
            "type": "string", "pattern": .string(CloudKitNaming.namePattern),
            "maxLength": .int(Int64(CloudKitNaming.maxNameLength)),
        ],
        "scopes": [
            "description": .string(doc("scopes", .model)),
            "type": "array", "items": ["enum": words(ScopeName.self)], "uniqueItems": true, "minItems": 1,
        ],
        "shareable": [
            "description": .string(doc("shareable", .model)),
            "type": "boolean",
        ],
        "parent": [
            "description": .string(doc("parent", .model)),
            "type": "string", "pattern": .string(SwiftNaming.typeNamePattern),
        ],
        "zone": [
            "description": .string(doc("zone", .model)),
            "type": "string", "pattern": .string(CloudKitNaming.zoneNamePattern),
            "maxLength": .int(Int64(CloudKitNaming.maxZoneNameLength)),
        ],
        "publishAs": [
            "description": .string(doc("publishAs", .model)),
            "type": "string", "pattern": .string(SwiftNaming.typeNamePattern),
        ],
        "catalog": [
            "description": .string(doc("catalog", .model)),
            "$ref": "#/definitions/catalog",
        ],
        "unique": [
            "description": .string(doc("unique", .model)),
            "type": "array",
            "items": ["oneOf": [["type": "string"], ["type": "array", "items": ["type": "string"], "minItems": 1]]],
        ],
        "merge": [
            "description": .string(doc("merge", .model)),
            "enum": .array(MergePolicyName.allCases.filter(\.isModelPolicy).map { .string($0.rawValue) }),
        ],
        "fields": [
            "description": .string(doc("fields", .model)),
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
                        requires("cases", whenTypeIs: .scalar(.enum)),
                    ],
                ],
            ],
        ]
    }

    static let fieldType: JSONValue = [
        "description": "A field type (the shorthand 'name: TYPE').",
        "enum": words(FieldKind.self),
    ]

    /// What an `enum` case's name may be.
    static let caseNamePattern = "^[A-Za-z_][A-Za-z0-9_]*$"

    static let fieldKeys: [String: JSONValue] = [
        "type": ["$ref": "#/definitions/fieldType"],
        "optional": ["description": .string(doc("optional", .field)), "type": "boolean"],
        "default": ["description": .string(doc("default", .field))],
        "to": [
            "description": .string(doc("to", .field)),
            "type": "string", "pattern": .string(SwiftNaming.typeNamePattern),
        ],
        "onDelete": [
            "description": .string(doc("onDelete", .field)),
            "enum": words(DeleteActionName.self),
        ],
        "of": [
            "description": .string(doc("of", .field)),
            "enum": .array(FieldKind.allCases.filter(\.isListElement).map { .string($0.rawValue) }),
        ],
        "description": ["description": .string(doc("description", .field)), "type": ["string", "number", "boolean"]],
        "cases": [
            "description": .string(doc("cases", .field)),
            "type": "array", "minItems": 1, "uniqueItems": true,
            "items": [
                "oneOf": [
                    ["type": "string", "pattern": .string(caseNamePattern)],
                    // A case and what it means; syncgen checks there is one of each.
                    [
                        "type": "object", "propertyNames": ["pattern": .string(caseNamePattern)],
                        "additionalProperties": ["type": ["string", "number", "boolean"]],
                    ],
                ],
            ],
        ],
        "encrypted": ["description": .string(doc("encrypted", .field)), "type": "boolean"],
        "deprecated": ["description": .string(doc("deprecated", .field)), "type": ["boolean", "string"]],
        "recordKey": ["description": .string(doc("recordKey", .field)), "type": "string"],
        "maxBytes": ["description": .string(doc("maxBytes", .field)), "type": "integer"],
        "localOnly": ["description": .string(doc("localOnly", .field)), "type": "boolean"],
        "serverOwned": ["description": .string(doc("serverOwned", .field)), "type": "boolean"],
        "index": [
            "description": .string(doc("index", .field)),
            "type": "array", "items": ["enum": words(IndexKind.self)],
        ],
        "merge": [
            "description": .string(doc("merge", .field)),
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
            "description": .string(doc("desiredKeys", .catalog)),
            "oneOf": [
                ["const": .string(SchemaVocabulary.automaticDesiredKeys)],
                ["type": "array", "items": ["type": "string"]],
            ],
        ],
        "initialState": [
            "description": .string(doc("initialState", .catalog)),
            "enum": words(PublicationStateName.self),
        ],
        "governed": ["description": .string(doc("governed", .catalog)), "type": "boolean"],
    ]

    // MARK: - Building blocks

    /// A key's one line, written once beside the vocabulary (the language server shows it too).
    private static func doc(_ key: String, _ level: SchemaKeyLevel) -> String {
        guard let line = SchemaVocabulary.documentation(ofKey: key, at: level) else { preconditionFailure("key '\(key)' has no documentation") }
        return line
    }

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
