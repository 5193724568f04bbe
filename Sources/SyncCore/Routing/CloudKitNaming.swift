/// CloudKit's rules for record type and field names, in one place: the schema validator and
/// LocalCloud both check names with it.
package enum CloudKitNaming {
    /// Longest record type or field name CloudKit accepts.
    package static let maxNameLength = CloudKitLimits.maxNameLength
    /// The characters `problem(with:)` allows, as a regular expression (for the JSON Schema that
    /// editors check names with; the length limit is separate).
    package static let namePattern = "^[A-Za-z][A-Za-z0-9_]*$"

    /// Why `name` is not a valid CloudKit record type or field name, or nil when it is: it must
    /// start with an ASCII letter, hold only ASCII letters, digits and underscores, and be at most
    /// 255 characters long.
    package static func problem(with name: String) -> String? {
        guard let first = name.unicodeScalars.first else { return "it is empty" }
        guard first.isASCIILetter else { return "it must start with a letter (A-Z, a-z)" }
        if let bad = name.unicodeScalars.first(where: { !($0.isASCIILetter || $0.isASCIIDigit || $0 == "_") }) {
            return "it may hold only letters, digits and underscores, not '\(Character(bad))'"
        }
        if name.utf8.count > maxNameLength {
            return "it is \(name.utf8.count) characters long; CloudKit allows at most \(maxNameLength)"
        }
        return nil
    }
}

extension CloudKitNaming {
    /// Longest zone name CloudKit accepts.
    package static let maxZoneNameLength = CloudKitLimits.maxNameLength
    /// The zone names `zoneNameProblem(with:)` allows, as a regular expression (for the JSON
    /// Schema; the length limit is separate).
    package static let zoneNamePattern = #"^(?!_)[\u0000-\u007F]+$"#

    /// Why `name` is not a zone name CloudKit accepts, or nil when it is. Apple
    /// (`CKRecordZone.init(zoneName:)`): "Zone names inside a user's private database are unique,
    /// consist of up to 255 ASCII characters, and don't start with an underscore"; an empty name
    /// throws. The underscore also keeps out the database's own `_defaultZone`.
    package static func zoneNameProblem(with name: String) -> String? {
        guard let first = name.unicodeScalars.first else { return "it is empty" }
        if first == "_" { return "it starts with an underscore, which CloudKit keeps for its own zones (such as _defaultZone)" }
        if let bad = name.unicodeScalars.first(where: { !$0.isASCII }) {
            return "it may hold only ASCII characters, not '\(Character(bad))'"
        }
        if name.utf8.count > maxZoneNameLength {
            return "it is \(name.utf8.count) characters long; CloudKit allows at most \(maxZoneNameLength)"
        }
        return nil
    }
}

extension Unicode.Scalar {
    package var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    package var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
