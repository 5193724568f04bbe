import SyncCore

/// What one transaction did beyond its SQL: the models it saved and deleted, in order (what the
/// commit feed announces once it commits), and the tables it found or grew (what the store's
/// cache keeps once it commits). Lives as long as the transaction.
final class TransactionChanges {
    private(set) var list: [StoreChange] = []
    let tables: TransactionTables

    init(tables: TransactionTables) {
        self.tables = tables
    }

    func note(_ recordType: String, _ recordName: String, _ kind: ChangeKind, by author: StoreAuthor) {
        list.append(StoreChange(recordType: recordType, recordName: recordName, kind: kind, author: author))
    }
}
