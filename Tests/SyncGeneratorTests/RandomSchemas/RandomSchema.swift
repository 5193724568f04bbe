import SyncGenerator
import SyncCore

/// A schema drawn at random from one seed: the same seed gives the same files on every machine.
///
/// Drawn to be valid most of the time, so that most runs reach the generator and the compiler:
/// every type, option, scope set, parent chain, projection and catalog of the schema language,
/// with names from `HostileNames`, Unicode letters and names of the maximum length. Now and then
/// a name the validator refuses slips in, and about a third of the schemas get a fault planted on
/// purpose (`PlantedFault`), whose error the run expects to see.
struct RandomSchema: Sendable {
    let seed: UInt64
    /// File name -> YAML.
    let files: [String: String]
    /// What was broken on purpose; empty when the schema was drawn to be valid.
    let faults: [PlantedFault]

    init(seed: UInt64) {
        var draw = SchemaDraw(random: SeededRandom(seed: seed))
        draw.drawModels()
        draw.plantFaults()
        self.seed = seed
        self.files = draw.render()
        self.faults = draw.faults
    }

    /// The files, one after the other, as a failure message shows them.
    var listing: String {
        files.keys.sorted().map { "--- \($0)\n\(files[$0]!)" }.joined(separator: "\n")
    }
}

/// A mistake put into a random schema on purpose, and the code the validator must report for it.
struct PlantedFault: Sendable, CustomStringConvertible {
    var what: String
    var code: DiagnosticCode

    var description: String { "\(what) (\(code.rawValue))" }
}

// MARK: - The schema as drawn, before it is written as YAML

/// A model as drawn: its keys as they will be written (nil: left out).
struct DrawnModel {
    enum Role { case plain, shareRoot, child, draft, projection, publicModel }

    var name: String
    var role: Role
    var file: Int
    var recordType: String?
    var scopes: [String]?
    var shareable: Bool?
    var parent: String?
    var publishAs: String?
    /// The catalog block's lines, already written (`desiredKeys: auto`).
    var catalog: [(key: String, value: String)]?
    /// Natural keys, each a list of field names.
    var unique: [[String]] = []
    var merge: String?
    var fields: [DrawnField] = []

    var isPublic: Bool { role == .projection || role == .publicModel }
    var isShared: Bool { role == .shareRoot || (role == .child && scopes == ["private", "shared"]) }
    var hasAsset: Bool { fields.contains { $0.type.word == "asset" } }
}

struct DrawnField {
    var name: String
    var type: DrawnType
    var optional: Bool?
    /// The default as YAML text.
    var defaultValue: String?
    var encrypted: Bool?
    var localOnly: Bool?
    var serverOwned: Bool?
    var index: [String] = []
    var merge: String?
    /// An enum's (or a list of enums') cases.
    var cases: [String] = []
    /// Keys written as they are, for faults (`optinal: true`).
    var extra: [(key: String, value: String)] = []

    /// Written as `name: type` when nothing but the type is set.
    var isShorthand: Bool {
        type.isScalar && optional == nil && defaultValue == nil && encrypted == nil && localOnly == nil
            && serverOwned == nil && index.isEmpty && merge == nil && cases.isEmpty && extra.isEmpty
    }

    var isUploaded: Bool { localOnly != true && serverOwned != true }
}

indirect enum DrawnType {
    case scalar(String)
    case reference(to: String, onDelete: String?)
    case list(of: DrawnType)

    var word: String {
        switch self {
        case .scalar(let word): word
        case .reference: "reference"
        case .list: "list"
        }
    }

    var isScalar: Bool { if case .scalar = self { true } else { false } }

    /// A list of `word`.
    func isListOf(_ word: String) -> Bool { if case .list(.scalar(word)) = self { true } else { false } }

    var isReference: Bool {
        switch self {
        case .reference: true
        case .list(let element): element.isReference
        case .scalar: false
        }
    }
}
