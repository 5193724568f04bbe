import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncRuntime
import SyncLocalCloud

/// `Note` as an older version of the app knew it, before the schema gained `createdAt`,
/// `pinned` and `cover`: what syncgen generated for
///
///     Note:
///       fields:
///         title: { type: string, default: "Untitled" }
///         body: string
///
/// Devices running it share records with devices running the current `Note`.
struct NoteVersion1: Sendable, Hashable {
    var recordName: String
    var ownerName: String
    var title: String
    var body: String

    init(recordName: String = UUID().uuidString, ownerName: String = SyncConstants.currentUserOwnerName, title: String = "Untitled", body: String = "") {
        self.recordName = recordName
        self.ownerName = ownerName
        self.title = title
        self.body = body
    }
}

extension NoteVersion1: SyncModel {
    static let recordType = "Note"
    static let syncScopes: Set<DatabaseScope> = [.private]
    static let parentRecordType: String? = nil
    static var childTypes: [any SyncModel.Type] { [] }
    static let _syncFields = ModelFields<Self>(
        [
            .field("title", \Self.title),
            .field("body", \Self.body),
        ],
        tombstone: [TombstoneKeyPath("recordName", \Self.recordName), TombstoneKeyPath("ownerName", \Self.ownerName)],
        empty: { Self(recordName: $0, ownerName: $1) })

    var parentRecordName: String? { nil }
}

/// A hand-written model whose field is a computed property.
struct ComputedTitleNote: Sendable, Hashable {
    var recordName: String
    var ownerName: String
    var words: [String]
    /// The field the table names: computed from `words`.
    var title: String {
        get { words.joined(separator: " ") }
        set { words = newValue.split(separator: " ").map(String.init) }
    }

    init(recordName: String = "computed", ownerName: String = SyncConstants.currentUserOwnerName, words: [String] = []) {
        self.recordName = recordName
        self.ownerName = ownerName
        self.words = words
    }
}

extension ComputedTitleNote: SyncModel {
    static let recordType = "Note"
    static let syncScopes: Set<DatabaseScope> = [.private]
    static let parentRecordType: String? = nil
    static var childTypes: [any SyncModel.Type] { [] }
    static let _syncFields = ModelFields<Self>(
        [.field("title", \Self.title)],
        tombstone: [TombstoneKeyPath("recordName", \Self.recordName), TombstoneKeyPath("ownerName", \Self.ownerName)],
        empty: { Self(recordName: $0, ownerName: $1) })

    var parentRecordName: String? { nil }
}

/// `SharedList` as an older version of the app knew it, before the schema gained `color` and the
/// encrypted `pin`.
struct SharedListVersion1: Sendable, Hashable {
    var recordName: String
    var ownerName: String
    var title: String

    init(recordName: String = UUID().uuidString, ownerName: String = SyncConstants.currentUserOwnerName, title: String = "") {
        self.recordName = recordName
        self.ownerName = ownerName
        self.title = title
    }
}

extension SharedListVersion1: SyncModel {
    static let recordType = "SharedList"
    static let syncScopes: Set<DatabaseScope> = [.private, .shared]
    static let parentRecordType: String? = nil
    static var childTypes: [any SyncModel.Type] { [] }
    static let _syncFields = ModelFields<Self>(
        [.field("title", \Self.title)],
        tombstone: [TombstoneKeyPath("recordName", \Self.recordName), TombstoneKeyPath("ownerName", \Self.ownerName)],
        empty: { Self(recordName: $0, ownerName: $1) })

    var parentRecordName: String? { nil }
}
