import Foundation
import SyncCore
import SyncPorts

/// A model an import brings in, with the files of its asset fields (`SyncEngine.importModels`).
public struct ImportedModel<Model: CacheableModel>: Sendable {
    /// The model, with the record name made from the old store's identifier.
    public var model: Model
    /// The files of its asset fields.
    public var files: [ImportedFile<Model>]

    /// A model and the files of its asset fields.
    public init(_ model: Model, files: [ImportedFile<Model>] = []) {
        self.model = model
        self.files = files
    }
}

/// A file of the app's old store, attached to an asset field of an imported model.
public struct ImportedFile<Model: CacheableModel>: Sendable {
    /// The asset field the file is attached to.
    public var field: KeyPath<Model, AssetReference?> & Sendable
    /// Where the old store keeps the file: it is copied, never moved or changed.
    public var url: URL
    /// The file's type, as the asset's suffix keeps it: the URL's extension unless given.
    public var suffix: String

    /// The file at `url` for `field`, its suffix the URL's extension unless given.
    public init(_ field: KeyPath<Model, AssetReference?> & Sendable, url: URL, suffix: String? = nil) {
        self.field = field
        self.url = url
        self.suffix = suffix ?? url.pathExtension
    }
}

// MARK: - Importing the app's old data

extension SyncEngine {
    /// Imports models the app builds from its old store (SwiftData, Core Data, GRDB, a JSON
    /// file), in transactions of `batchSize` models, telling `progress` after each. Each model's
    /// save is the app's change (author `import`): the next pass pushes it, as the app's first
    /// upload. The import `name` is kept in the store: called again, after a kill at any point,
    /// it reads on from the last batch it settled, and a model the store holds already (imported
    /// before, or synced from another device that imported the same data) is left as it is. Give
    /// each model a record name made from the old store's identifier, so that every device of
    /// the user makes the same records from the same data. Returns where the import ended.
    public nonisolated func importModels<Model: SyncModel>(
        _ models: some Sequence<Model>, as name: String, batchSize: Int = 500, progress: (ImportProgress) -> Void = { _ in }
    ) throws -> ImportProgress {
        try runImport(models, as: name, batchSize: batchSize, model: { $0 }, attachFiles: { _ in }, progress: progress)
    }

    /// Imports models with the files of their asset fields, as `importModels(_:as:batchSize:progress:)`
    /// does models: each batch's files are attached (copied into the asset cache and uploaded
    /// after their records) before the import reads past it, so a kill never leaves an imported
    /// model without its file. A file is not attached again to a field that has one already.
    public nonisolated func importModels<Model: CacheableModel>(
        _ items: some Sequence<ImportedModel<Model>>, as name: String, batchSize: Int = 500, progress: (ImportProgress) -> Void = { _ in }
    ) throws -> ImportProgress {
        try runImport(items, as: name, batchSize: batchSize, model: \.model, attachFiles: { batch in
            let assets = AssetPhase(context: context)
            for item in batch {
                for file in item.files {
                    let key = AssetKey(file.field, recordName: item.model.recordName)
                    guard try context.assetTransaction({ try $0.assetEntry(key) }) == nil else { continue }
                    let data: Data
                    do {
                        data = try Data(contentsOf: file.url)
                    } catch {
                        throw AssetError.fileSystem(key, "\(file.url.path): \(error)")
                    }
                    try assets.attach(data, suffix: file.suffix, to: key, of: Model.self, pinned: false)
                }
            }
        }, progress: progress)
    }

    /// The import's loop: a batch saved (with its mark), its files attached, then settled.
    private nonisolated func runImport<Item, Model: SyncModel>(
        _ source: some Sequence<Item>, as name: String, batchSize: Int, model: (Item) -> Model,
        attachFiles: ([Item]) throws -> Void, progress: (ImportProgress) -> Void
    ) throws -> ImportProgress {
        precondition(batchSize > 0, "an import's batch size must be at least 1, not \(batchSize)")
        var (done, unsettled) = try SyncError.reportingStoreFailures { try context.store.importState(name) }
        var items = source.makeIterator()
        var position = 0
        while position < done.read, items.next() != nil { position += 1 }
        while true {
            // A batch saved and not settled is read again whole, whatever the batch size now.
            let end = unsettled?.end ?? position + batchSize
            var batch: [Item] = []
            batch.reserveCapacity(end - position)
            while position < end, let item = items.next() {
                batch.append(item)
                position += 1
            }
            guard !batch.isEmpty else { return done }
            let models = batch.map(model)
            _ = try SyncError.reportingStoreFailures { try context.store.saveImportBatch(models, of: name, endingAt: position) }
            try attachFiles(batch)
            done = try SyncError.reportingStoreFailures { try context.store.settleImportBatch(of: name) }
            unsettled = nil
            progress(done)
        }
    }
}
