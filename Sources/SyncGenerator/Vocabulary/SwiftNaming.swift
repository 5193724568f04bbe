import SyncCore

/// Swift's rules for the names syncgen generates, in one place.
package enum SwiftNaming {
    /// Words that must be written in backticks to be used as a property name.
    package static let keywords: Set<String> = [
        // Declarations.
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension",
        "fileprivate", "func", "import", "init", "inout", "internal", "let", "nonisolated", "open",
        "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var",
        // Statements.
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough",
        "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
        // Expressions and types.
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
    ]

    /// Words Swift reads as keywords where a type is written (`any P`, `some P`, `each T`),
    /// though they may name a property: no model can be called so.
    package static let typePositionKeywords: Set<String> = ["any", "some", "each"]

    /// The type syncgen generates beside the models to list them all.
    package static let schemaTypeName = "SyncSchema"

    /// The characters `typeNameProblem(_:)` allows, as a regular expression (for the JSON Schema
    /// that editors check names with; keywords are left to the validator).
    package static let typeNamePattern = "^[A-Za-z_][A-Za-z0-9_]*$"

    /// Why `name` is no Swift type name, or nil when it is: an ASCII identifier (letter or
    /// underscore, then letters, digits, underscores) that is not a keyword. The names generated
    /// code keeps for itself are `ReservedNames.modelNameProblem(_:)`'s.
    package static func typeNameProblem(_ name: String) -> String? {
        guard let first = name.unicodeScalars.first else { return "it is empty" }
        guard first.isASCIILetter || first == "_" else {
            return "a Swift type name starts with a letter or underscore"
        }
        if let bad = name.unicodeScalars.first(where: { !($0.isASCIILetter || $0.isASCIIDigit || $0 == "_") }) {
            return "a Swift type name holds only letters, digits and underscores, not '\(Character(bad))'"
        }
        if name == "_" || keywords.contains(name) {
            return "'\(name)' is a Swift keyword"
        }
        if typePositionKeywords.contains(name) {
            return "Swift reads '\(name)' as a keyword where a type is written"
        }
        return nil
    }
}
