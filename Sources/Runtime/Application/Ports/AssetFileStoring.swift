import Foundation

/// The asset cache's files, as the engine sees them: one file per asset, under one root. Every
/// write lands atomically (a temporary file in the same folder, then a move), so the file at an
/// asset's place is always whole. `AssetFileStore` implements it on the file system.
public protocol AssetFileStoring: Sendable {
    /// Where an asset's file lives, whether or not it exists.
    func fileURL(for key: AssetKey, suffix: String) -> URL
    /// Writes `data` as the asset's file; returns its size.
    func write(_ data: Data, for key: AssetKey, suffix: String) throws -> Int64
    /// Copies a file (a download the cloud handed over, another asset's file) into the asset's
    /// place; returns its size.
    func importFile(at source: URL, for key: AssetKey, suffix: String) throws -> Int64
    func fileExists(for key: AssetKey, suffix: String) -> Bool
    func removeFile(for key: AssetKey, suffix: String) throws
    /// Removes the temporary files of writes that never finished (the app ended mid-write).
    func removeUnfinishedWrites() throws
    /// Removes every file: the account changed.
    func removeAll() throws
}
