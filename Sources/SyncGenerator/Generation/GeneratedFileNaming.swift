// This file is compiled twice: into SyncGenerator, and (through a symbolic link) into the build
// plugin, which cannot import a library. It must depend on nothing but the standard library.

/// The fixed rule that names generated files, so a build plugin can declare its outputs from the
/// schema files' paths alone, before anything runs.
///
/// A schema file's path relative to its schema folder becomes the output name: folders are joined
/// with `+` and the extension becomes `.syncgen.swift` (`Notes.yaml` -> `Notes.syncgen.swift`,
/// `Lists/Items.yml` -> `Lists+Items.syncgen.swift`). The `.syncgen` part keeps generated files
/// from clashing with hand-written ones: Swift refuses two files of one name in a module. Beside
/// them, `SyncSchema.syncgen.swift` lists every model.
public enum GeneratedFileNaming {
    public static let suffix = ".syncgen.swift"
    public static let schemaListFile = "SyncSchema" + suffix

    public static func outputName(forSchemaAt relativePath: String) -> String {
        var components = relativePath.split(separator: "/").map(String.init)
        let file = components.removeLast()
        let stem = file.contains(".") ? String(file[..<file.lastIndex(of: ".")!]) : file
        return (components + [stem]).joined(separator: "+") + suffix
    }

    /// Output names for every schema file plus the schema list, in order; nil plus the clashing
    /// pair when two of them would be one file on a case-insensitive disk.
    public static func outputNames(forSchemasAt relativePaths: [String]) -> Result<[String], Clash> {
        var seen: [String: String] = [schemaListFile.lowercased(): ""]
        var names: [String] = []
        for path in relativePaths {
            let name = outputName(forSchemaAt: path)
            if let other = seen[name.lowercased()] {
                return .failure(Clash(name: name, first: other, second: path))
            }
            seen[name.lowercased()] = path
            names.append(name)
        }
        return .success(names + [schemaListFile])
    }

    public struct Clash: Error, Equatable, CustomStringConvertible {
        public var name: String
        public var first: String
        public var second: String

        public var description: String {
            if first.isEmpty {
                return "schema file '\(second)' would generate '\(name)', the name of the generated list of models; rename it"
            }
            return "schema files '\(first)' and '\(second)' would both generate '\(name)'; rename one of them"
        }
    }
}
