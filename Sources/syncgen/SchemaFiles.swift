import Foundation
import SyncGenerator

/// Finds and reads the schema files named on the command line: the CLI's only file system access.
enum SchemaFiles {
    static let extensions: Set<String> = ["yaml", "yml"]
    /// Larger files are refused before reading: no schema comes close.
    static let maxFileSize = 64 * 1024 * 1024

    /// A schema file as the user named it, and its path below its schema folder (which names the
    /// file generated from it).
    struct Found: Equatable {
        var path: String
        var relativePath: String
    }

    /// Files named directly are taken whatever their extension; folders are searched recursively
    /// for `*.yaml` / `*.yml`, skipping hidden files and folders, in sorted order. A file named
    /// directly is relative to `relativeTo` when it lies below it, else to its own folder.
    static func discover(_ paths: [String], relativeTo: String? = nil) throws(UsageError) -> [Found] {
        var files: [Found] = []
        var seen = Set<String>()
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw UsageError(message: "no such file or folder: '\(path)'")
            }
            let found = isFolder.boolValue
                ? try schemaFiles(inFolder: path)
                : [Found(path: path, relativePath: relativePath(ofFile: path, below: relativeTo))]
            for file in found where seen.insert(standardized(file.path)).inserted {
                files.append(file)
            }
        }
        return files
    }

    private static func standardized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    private static func relativePath(ofFile file: String, below root: String?) -> String {
        let absolute = standardized(file)
        if let root {
            let base = standardized(root)
            if absolute.hasPrefix(base + "/") { return String(absolute.dropFirst(base.count + 1)) }
        }
        return URL(fileURLWithPath: absolute).lastPathComponent
    }

    private static func schemaFiles(inFolder folder: String) throws(UsageError) -> [Found] {
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
        return relativePaths.sorted().map { Found(path: prefix + $0, relativePath: $0) }
    }

    /// The schema files in the folders of the files named directly, that were not read: a model
    /// one of them declares is what the user most likely forgot to pass. Unreadable ones are
    /// skipped; they only serve a hint.
    static func besides(_ loaded: [String], named paths: [String]) -> [SchemaSource] {
        let taken = Set(loaded.map(standardized))
        var folders: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            let folder = (path as NSString).deletingLastPathComponent
            if !folders.contains(folder) { folders.append(folder) }
        }
        var sources: [SchemaSource] = []
        for folder in folders {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []).sorted()
            for name in names where extensions.contains((name as NSString).pathExtension.lowercased()) && !name.hasPrefix(".") {
                let path = folder.isEmpty ? name : folder + "/" + name
                guard !taken.contains(standardized(path)), let source = try? read(path) else { continue }
                sources.append(source)
            }
        }
        return sources
    }

    private static func kind(of type: FileAttributeType) -> String {
        switch type {
        case .typeDirectory: "a folder"
        case .typeCharacterSpecial: "a character device"
        case .typeBlockSpecial: "a block device"
        case .typeSocket: "a socket"
        case .typeSymbolicLink: "a link that names nothing"
        default: "a FIFO or other special file"
        }
    }

    /// 67201059 as 67,201,059.
    static func grouped(_ number: Int) -> String {
        let digits = String(number)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return result
    }

    /// Reads every file found under `paths`.
    static func load(_ paths: [String], relativeTo: String? = nil) throws(UsageError) -> [(found: Found, source: SchemaSource)] {
        var loaded: [(found: Found, source: SchemaSource)] = []
        for file in try discover(paths, relativeTo: relativeTo) {
            loaded.append((file, try read(file.path)))
        }
        return loaded
    }

    static func read(_ path: String) throws(UsageError) -> SchemaSource {
        let url = URL(fileURLWithPath: path)
        // A link is judged by what it names; a FIFO or a device would never end, or block.
        let attributes = try? FileManager.default.attributesOfItem(atPath: (path as NSString).resolvingSymlinksInPath)
        if let type = attributes?[.type] as? FileAttributeType, type != .typeRegular {
            throw UsageError(message: "'\(path)' is not a regular file (\(kind(of: type))); name a schema file or a folder of them")
        }
        let size = attributes?[.size] as? Int ?? 0
        guard size <= maxFileSize else {
            throw UsageError(message: "'\(path)' is \(grouped(size)) bytes; schema files larger than \(grouped(maxFileSize)) bytes (64 MiB) are refused")
        }
        do {
            let data = try Data(contentsOf: url)
            return SchemaSource(path: path, bytes: Array(data))
        } catch {
            throw UsageError(message: "cannot read '\(path)': \(error.localizedDescription)")
        }
    }
}
