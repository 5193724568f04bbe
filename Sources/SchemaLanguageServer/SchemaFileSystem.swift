import Foundation
import SyncGenerator

/// What the server reads from disk: the schema files of a folder that are not open in the editor.
/// A protocol so tests serve folders from memory.
package protocol SchemaFileSystem: Sendable {
    /// The absolute paths of the schema files (`*.yaml`, `*.yml`) in `folder` and below, hidden
    /// ones skipped, sorted.
    func schemaFiles(in folder: String) -> [String]
    /// A file's text, nil when it cannot be read.
    func read(_ path: String) -> String?
}

/// The real disk.
package struct DiskFileSystem: SchemaFileSystem {
    package init() {}

    package func schemaFiles(in folder: String) -> [String] {
        let root = URL(fileURLWithPath: folder, isDirectory: true)
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]) else { return [] }
        var paths: [String] = []
        for case let url as URL in enumerator where ["yaml", "yml"].contains(url.pathExtension.lowercased()) {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            paths.append(url.standardizedFileURL.path)
        }
        return paths.sorted()
    }

    package func read(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
