import Foundation

/// One record a committed transaction of the local store saved or deleted, and who did it: the
/// app, or the sync engine applying what it pulled, merged or was told was deleted.
public struct StoreChange: Sendable, Hashable {
    /// The record's type (the model's `recordType`).
    public let recordType: String
    /// The record's name.
    public let recordName: String
    /// Saved (inserted or updated) or deleted.
    public let kind: ChangeKind
    /// Who wrote it: `.app`, a named writer of the app, or the sync engine.
    public let author: StoreAuthor

    /// Whether the sync engine made the change (what it pulled, merged or deleted), not the app.
    public var isFromSync: Bool { author.isEngine }

    /// A change: its record, what happened to it, and its author.
    package init(recordType: String, recordName: String, kind: ChangeKind, author: StoreAuthor) {
        self.recordType = recordType
        self.recordName = recordName
        self.kind = kind
        self.author = author
    }
}

/// The records one committed transaction changed, in the order it changed them. A record
/// changed twice in the transaction appears twice.
public struct StoreCommit: Sendable, Hashable {
    /// The transaction's changes, in order.
    public let changes: [StoreChange]

    /// A commit of these changes.
    package init(changes: [StoreChange]) {
        self.changes = changes
    }

    /// Whether the transaction changed a record of the model's type.
    public func touches<Model: SyncModel>(_ type: Model.Type) -> Bool {
        changes.contains { $0.recordType == Model.recordType }
    }

    /// The transaction's changes of the model's type, in order.
    public func changes<Model: SyncModel>(of type: Model.Type) -> [StoreChange] {
        changes.filter { $0.recordType == Model.recordType }
    }
}
