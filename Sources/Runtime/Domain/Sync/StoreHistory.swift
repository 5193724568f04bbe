import Foundation

/// Who wrote a change to the local store. The engine's own writes (pulled records, owner
/// rewrites) are stamped `.sync` and are never pushed back: that is what breaks echo loops.
public enum StoreAuthor: Hashable, Sendable, CustomStringConvertible {
    /// The app (any write the engine did not make).
    case app
    /// The sync engine.
    case sync
    /// A named app writer, e.g. "importer": pushed like `.app`.
    case named(String)

    package var storedValue: String {
        switch self {
        case .app: "app"
        case .sync: "sync"
        case .named(let name): "app:" + name
        }
    }

    public var description: String { storedValue }
}

/// A change the local store recorded: what changed, by whom, and (for deletions) the values the
/// deleted model kept.
public struct HistoryEntry: Hashable, Sendable {
    public enum Kind: Int, Sendable, Hashable {
        case save = 0, delete = 1
    }

    public var sequence: Int64
    public var recordType: String
    public var recordName: String
    public var kind: Kind
    public var author: String
    /// For a deletion: the values of the model's tombstone key paths (recordName, ownerName...).
    public var tombstone: [String: String]

    public init(sequence: Int64, recordType: String, recordName: String, kind: Kind, author: String, tombstone: [String: String]) {
        self.sequence = sequence
        self.recordType = recordType
        self.recordName = recordName
        self.kind = kind
        self.author = author
        self.tombstone = tombstone
    }

    public var ownerName: String { tombstone[RecordFieldNames.ownerName] ?? SyncConstants.currentUserOwnerName }
}
