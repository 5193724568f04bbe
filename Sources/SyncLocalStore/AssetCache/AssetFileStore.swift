import Foundation
import SyncCore
import SyncPorts
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The asset cache on the file system: `<root>/<recordType>.<field>/<recordName>.<suffix>` (a
/// file written while a model held one asset, whose entry names no field yet, is still at
/// `<root>/<recordType>/<recordName>.<suffix>` until the engine moves it: `moveFile`). A write goes
/// to `.<name>.<random>.partial` in the same folder and is renamed into place, which is atomic on
/// one file system: a reader, or the next start after a crash, sees the old file or the new one,
/// never half of one. Leftover partial files are removed by `removeUnfinishedWrites`. Files an
/// account parked live under `<root>/.parked/<account>/`, a folder no record type can be named
/// (names are percent-encoded, `.` included).
public struct AssetFileStore: AssetFileStoring {
    /// The folder every cached file lives under.
    public let root: URL

    /// The cache's files under `root` (created when first written).
    public init(root: URL) {
        self.root = root.standardizedFileURL
    }

    static let partialSuffix = ".partial"

    public func fileURL(for key: AssetKey, suffix: String) -> URL {
        folder(for: key).appendingPathComponent(fileName(key, suffix: suffix))
    }

    public func write(_ data: Data, for key: AssetKey, suffix: String) throws -> AssetReference {
        let partial = try partialFile(for: key, suffix: suffix)
        do {
            try data.write(to: partial)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        try moveIntoPlace(partial, for: key, suffix: suffix)
        return AssetReference(suffix: suffix, byteSize: Int64(data.count), digest: SHA256.hex(of: data))
    }

    public func importFile(at source: URL, for key: AssetKey, suffix: String) throws -> AssetReference {
        let partial = try stage(source, for: key, suffix: suffix)
        try moveIntoPlace(partial, for: key, suffix: suffix)
        guard let imported = try reference(for: key, suffix: suffix) else {
            // Removed between its move into place and this read: report it, never crash.
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: fileURL(for: key, suffix: suffix).path])
        }
        return imported
    }

    public func reference(for key: AssetKey, suffix: String) throws -> AssetReference? {
        let url = fileURL(for: key, suffix: suffix)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return AssetReference(suffix: suffix, byteSize: try size(of: url), digest: try SHA256.hex(ofFileAt: url))
    }

    /// Copies `source` to a partial file beside the asset's place; the first half of an import.
    public func stage(_ source: URL, for key: AssetKey, suffix: String) throws -> URL {
        let partial = try partialFile(for: key, suffix: suffix)
        do {
            try FileManager.default.copyItem(at: source, to: partial)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        return partial
    }

    /// Renames a partial file onto the asset's place, replacing what was there: the second half.
    public func moveIntoPlace(_ partial: URL, for key: AssetKey, suffix: String) throws {
        let target = fileURL(for: key, suffix: suffix)
        guard rename(partial.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: partial)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target.path, NSLocalizedDescriptionKey: "cannot move the asset into place: \(reason)"])
        }
    }

    public func fileExists(for key: AssetKey, suffix: String) -> Bool {
        FileManager.default.fileExists(atPath: fileURL(for: key, suffix: suffix).path)
    }

    public func removeFile(for key: AssetKey, suffix: String) throws {
        let url = fileURL(for: key, suffix: suffix)
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        try FileManager.default.removeItem(at: url)
    }

    public func removeUnfinishedWrites() throws {
        let manager = FileManager.default
        guard let folders = try? manager.contentsOfDirectory(at: root, includingPropertiesForKeys: nil) else { return }
        for folder in folders {
            for file in (try? manager.contentsOfDirectory(atPath: folder.path)) ?? [] where file.hasSuffix(Self.partialSuffix) {
                try manager.removeItem(at: folder.appendingPathComponent(file))
            }
        }
    }

    public func removeAll() throws {
        guard FileManager.default.fileExists(atPath: root.path) else { return }
        for item in try FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: nil) where item.lastPathComponent != Self.parkedFolder {
            try FileManager.default.removeItem(at: item)
        }
    }

    public func moveFile(of key: AssetKey, to newKey: AssetKey, suffix: String) throws {
        try Self.move(key, suffix: suffix, from: self, to: self, as: newKey)
    }

    // MARK: - Parked files

    static let parkedFolder = ".parked"

    private func parkedStore(for account: String) -> AssetFileStore {
        AssetFileStore(root: root.appendingPathComponent(Self.parkedFolder, isDirectory: true).appendingPathComponent(Self.safeComponent(account), isDirectory: true))
    }

    public func park(_ key: AssetKey, suffix: String, for account: String) throws {
        try Self.move(key, suffix: suffix, from: self, to: parkedStore(for: account))
    }

    public func unpark(_ key: AssetKey, suffix: String, for account: String) throws {
        try Self.move(key, suffix: suffix, from: parkedStore(for: account), to: self)
    }

    public func removeParked(for account: String) throws {
        let folder = parkedStore(for: account).root
        guard FileManager.default.fileExists(atPath: folder.path) else { return }
        try FileManager.default.removeItem(at: folder)
    }

    /// Renames a file from one store's place to another's (atomic, one file system); nothing
    /// happens when the source is gone (moved already, before a crash).
    private static func move(_ key: AssetKey, suffix: String, from source: AssetFileStore, to target: AssetFileStore, as newKey: AssetKey? = nil) throws {
        let from = source.fileURL(for: key, suffix: suffix)
        guard FileManager.default.fileExists(atPath: from.path) else { return }
        let to = target.fileURL(for: newKey ?? key, suffix: suffix)
        try FileManager.default.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard rename(from.path, to.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: to.path, NSLocalizedDescriptionKey: "cannot move the asset: \(String(cString: strerror(errno)))"])
        }
    }

    // MARK: - Names

    /// A folder per record type and field: a safe component never holds a `.`, so neither name
    /// can run into the other, nor into the folders of files written before fields.
    private func folder(for key: AssetKey) -> URL {
        let type = Self.safeComponent(key.recordType)
        return root.appendingPathComponent(key.field.isEmpty ? type : type + "." + Self.safeComponent(key.field), isDirectory: true)
    }

    private func fileName(_ key: AssetKey, suffix: String) -> String {
        let name = Self.safeComponent(key.recordName)
        return suffix.isEmpty ? name : name + "." + Self.safeComponent(suffix)
    }

    private func partialFile(for key: AssetKey, suffix: String) throws -> URL {
        let folder = folder(for: key)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(".\(fileName(key, suffix: suffix)).\(UUID().uuidString)\(Self.partialSuffix)")
    }

    /// A name safe as one path component anywhere: letters, digits, `-` and `_` as they are,
    /// anything else percent-encoded (record names are the app's own and may hold `/` or `.`).
    static func safeComponent(_ name: String) -> String {
        var safe = ""
        for byte in name.utf8 {
            let scalar = Unicode.Scalar(byte)
            if scalar.isASCIILetter || scalar.isASCIIDigit || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") {
                safe.unicodeScalars.append(scalar)
            } else {
                safe += String(format: "%%%02X", byte)
            }
        }
        return safe.isEmpty ? "%" : safe
    }

    private func size(of url: URL) throws -> Int64 {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0
    }
}

/// Where the asset cache lives by default: a folder the system keeps, never a temporary one
/// (the system empties those, and every cached file would vanish and download again).
public enum AssetCacheLocation {
    /// The system offers no durable folder for the cache (no home, no Application Support).
    public struct NoDurableFolder: Error, CustomStringConvertible {
        public var description: String
    }

    /// `Application Support/<app>/syncgen/Assets` on Apple platforms; elsewhere
    /// `$XDG_DATA_HOME/<app>/syncgen/Assets`, or `<home>/.local/share/<app>/syncgen/Assets` (`home`
    /// defaults to the user's home folder). `<app>` is the bundle identifier, else the process
    /// name, so two apps never share (or purge) one cache. Throws rather than fall back to a
    /// temporary folder.
    public static func defaultRoot(
        appName: String = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        home: URL? = nil
    ) throws(NoDurableFolder) -> URL {
        let base: URL
        #if canImport(Darwin)
        guard let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first else {
            throw NoDurableFolder(description: "this system has no Application Support folder; give the asset cache a root")
        }
        base = support
        #else
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            base = URL(fileURLWithPath: data, isDirectory: true)
        } else {
            // Only here: `homeDirectoryForCurrentUser` does not exist on iOS, tvOS or watchOS.
            base = (home ?? FileManager.default.homeDirectoryForCurrentUser).appendingPathComponent(".local/share", isDirectory: true)
        }
        #endif
        let root = base.appendingPathComponent(AssetFileStore.safeComponent(appName), isDirectory: true)
            .appendingPathComponent("syncgen/Assets", isDirectory: true).standardizedFileURL
        if isTemporary(root) {
            throw NoDurableFolder(description: "the default asset cache folder '\(root.path)' is in a temporary folder the system empties; give the asset cache a root")
        }
        return root
    }

    /// Whether `url` lies in a folder the system empties.
    static func isTemporary(_ url: URL) -> Bool {
        let path = url.standardizedFileURL.resolvingSymlinksInPath().path
        let temporaryFolders = [FileManager.default.temporaryDirectory.path, "/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp"]
            .map { URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path }
        return temporaryFolders.contains { path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
    }
}
