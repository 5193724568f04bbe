/// Where an import of the app's old data stands (`SyncEngine.importModels`).
public struct ImportProgress: Sendable, Hashable {
    /// The source's items read and settled: imported, or found already stored.
    public var read: Int
    /// The models this import saved.
    public var imported: Int
    /// The models the store held already (imported before, or synced from another device that
    /// imported them): left as they are.
    public var skipped: Int

    /// Progress of these counts.
    public init(read: Int = 0, imported: Int = 0, skipped: Int = 0) {
        self.read = read
        self.imported = imported
        self.skipped = skipped
    }
}
