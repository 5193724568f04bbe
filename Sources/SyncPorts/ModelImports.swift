import Foundation
import SyncCore

/// A batch an import saved whose files may not all be attached yet: the import settles it before
/// it reads on (its models are stored by then, and skipped when the batch is read again).
package struct ImportBatch: Sendable, Hashable {
    /// Where the batch ends in the import's source.
    package var end: Int
    package var imported: Int
    package var skipped: Int

    package init(end: Int, imported: Int, skipped: Int) {
        self.end = end
        self.imported = imported
        self.skipped = skipped
    }
}

/// The store's side of an import (`SyncEngine.importModels`): each call one transaction of its own.
package protocol ModelImports: Sendable {
    /// Where the import `name` stands, and the batch it saved and has not settled, if any.
    func importState(_ name: String) throws -> (progress: ImportProgress, batch: ImportBatch?)
    /// Saves the models of a batch the store does not hold yet, with the batch's mark (ending at
    /// `end` in the source), in one transaction. A batch read again saves nothing it saved before.
    func saveImportBatch<Model: SyncModel>(_ models: [Model], of name: String, endingAt end: Int) throws -> ImportBatch
    /// Settles the batch the import saved (its files attached): the source is read past it.
    func settleImportBatch(of name: String) throws -> ImportProgress
}
