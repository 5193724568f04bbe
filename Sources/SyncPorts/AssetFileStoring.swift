import Foundation
import SyncCore

/// The asset cache's files, as the engine sees them: one file per asset, under one root. Every
/// write lands atomically (a temporary file in the same folder, then a move), so the file at an
/// asset's place is always whole. `AssetFileStore` implements it on the file system.
public protocol AssetFileStoring: Sendable {
    /// Where an asset's file lives, whether or not it exists.
    func fileURL(for key: AssetKey, suffix: String) -> URL
    /// Writes `data` as the asset's file; returns its markers (suffix, size, digest).
    func write(_ data: Data, for key: AssetKey, suffix: String) throws -> AssetReference
    /// Copies a file (a download the cloud handed over, another asset's file) into the asset's
    /// place; returns its markers.
    func importFile(at source: URL, for key: AssetKey, suffix: String) throws -> AssetReference
    /// The markers of the asset's file as it is (nil when there is none).
    func reference(for key: AssetKey, suffix: String) throws -> AssetReference?
    func fileExists(for key: AssetKey, suffix: String) -> Bool
    func removeFile(for key: AssetKey, suffix: String) throws
    /// Moves an asset's file to another key's place (atomic, one file system). Nothing happens
    /// when the file is not there (moved already, before a crash).
    func moveFile(of key: AssetKey, to newKey: AssetKey, suffix: String) throws
    /// Removes the temporary files of writes that never finished (the app ended mid-write).
    func removeUnfinishedWrites() throws
    /// Removes every file but parked ones: the account changed.
    func removeAll() throws

    /// Moves an asset's file out of the cache, kept for `account` (an upload that account still
    /// owes, parked when it signed out). Nothing happens when the file is not there.
    func park(_ key: AssetKey, suffix: String, for account: String) throws
    /// Moves a parked file back into its place.
    func unpark(_ key: AssetKey, suffix: String, for account: String) throws
    /// Removes the files parked for `account`.
    func removeParked(for account: String) throws
}
