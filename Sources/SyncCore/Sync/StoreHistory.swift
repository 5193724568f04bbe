import Foundation

/// Who wrote a change to the local store: `.app` (the default) or a named writer of the app
/// (`.named("importer")`), both pushed. The sync engine's own writes (pulled records, owner
/// rewrites) carry an author of its own that an app cannot give, and are never pushed back: that
/// is what breaks echo loops.
public struct StoreAuthor: Hashable, Sendable, CustomStringConvertible {
    /// How the author is kept in the store's history.
    package let storedValue: String

    private init(storedValue: String) {
        self.storedValue = storedValue
    }

    /// The app (any write the engine did not make).
    public static let app = StoreAuthor(storedValue: "app")

    /// A named writer of the app, e.g. "importer": pushed like `.app`, told apart in the history.
    public static func named(_ name: String) -> StoreAuthor {
        StoreAuthor(storedValue: "app:" + name)
    }

    /// The sync engine. Only the engine writes as it.
    package static let sync = StoreAuthor(storedValue: "sync")

    /// The one rule for "the engine's own writes are not app changes": a change whose author is
    /// the engine is never pushed, never counts as unpushed work, and fires no change stream.
    package var isEngine: Bool { self == .sync }

    /// `isEngine` for an author as the history keeps it.
    package static func isEngine(storedValue: String) -> Bool { storedValue == sync.storedValue }

    public var description: String { storedValue }
}

/// What a change did to a record: saved it, or deleted it.
public enum ChangeKind: Int, Sendable, Hashable {
    case save = 0, delete = 1
}

/// A change the local store recorded: what changed, by whom, and (for deletions) the values the
/// deleted model kept.
package struct HistoryEntry: Hashable, Sendable {
    package var sequence: Int64
    package var recordType: String
    package var recordName: String
    package var kind: ChangeKind
    package var author: String
    /// For a deletion: the values of the model's tombstone key paths (recordName, ownerName...).
    package var tombstone: [String: String]

    package init(sequence: Int64, recordType: String, recordName: String, kind: ChangeKind, author: String, tombstone: [String: String]) {
        self.sequence = sequence
        self.recordType = recordType
        self.recordName = recordName
        self.kind = kind
        self.author = author
        self.tombstone = tombstone
    }

    package var ownerName: String { tombstone[RecordFieldNames.ownerName] ?? SyncConstants.currentUserOwnerName }
}
