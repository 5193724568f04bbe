import Foundation
import SyncGenerator

/// Finds and reads the schema files named on the command line: the CLI's only file system access.
enum SchemaFiles {
    static let extensions: Set<String> = ["yaml", "yml"]
    /// Larger files are refused before reading: no schema comes close.
    static let maxFileSize = 64 * 1024 * 1024

    /// Files named directly are taken whatever their extension; folders are searched recursively
    /// for `*.yaml` / `*.yml`, skipping hidden files and folders, in sorted order.
    static func discover(_ paths: [String]) throws(UsageError) -> [String] {
        var files: [String] = []
        var seen = Set<String>()
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw UsageError(message: "no such file or folder: '\(path)'")
            }
            let found = isFolder.boolValue ? try schemaFiles(inFolder: path) : [path]
            for file in found where seen.insert(URL(fileURLWithPath: file).standardizedFileURL.path).inserted {
                files.append(file)
            }
        }
        return files
    }

    private static func schemaFiles(inFolder folder: String) throws(UsageError) -> [String] {
        let root = URL(fileURLWithPath: folder, isDirectory: true)
        guard let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else {
            throw UsageError(message: "cannot read folder '\(folder)'")
        }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let rootPath = root.standardizedFileURL.path
        var relativePaths: [String] = []
        for case let url as URL in enumerator where extensions.contains(url.pathExtension.lowercased()) {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(rootPath + "/") else { continue }
            relativePaths.append(String(path.dropFirst(rootPath.count + 1)))
        }
        guard !relativePaths.isEmpty else {
            let isEmpty = (try? FileManager.default.contentsOfDirectory(atPath: folder).isEmpty) ?? false
            throw UsageError(message: isEmpty
                ? "folder '\(folder)' is empty; it holds no schema files (*.yaml, *.yml)"
                : "folder '\(folder)' holds no schema files (*.yaml, *.yml)")
        }
        return relativePaths.sorted().map { prefix + $0 }
    }

    static func read(_ path: String) throws(UsageError) -> SchemaSource {
        let url = URL(fileURLWithPath: path)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= maxFileSize else {
            throw UsageError(message: "'\(path)' is \(size / 1_048_576) MB; schema files larger than \(maxFileSize / 1_048_576) MB are refused")
        }
        do {
            let data = try Data(contentsOf: url)
            return SchemaSource(path: path, bytes: Array(data))
        } catch {
            throw UsageError(message: "cannot read '\(path)': \(error.localizedDescription)")
        }
    }
}
