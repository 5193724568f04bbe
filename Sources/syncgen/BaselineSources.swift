import SyncGenerator

extension Baseline {
    /// The baseline's schema files; `newPaths` name the new schema, which a git baseline reads at
    /// its ref, relative to `directory` (nil: the current folder), in that folder's repository.
    func load(newPaths: [String], in directory: String? = nil) throws(UsageError) -> [SchemaSource] {
        switch self {
        case .files(let paths): try SchemaFiles.load(paths).map(\.source)
        case .git(let ref): try GitBaseline.load(ref: ref, paths: newPaths, in: directory)
        }
    }

    /// How summaries name it: the path, or the git ref.
    var name: String {
        switch self {
        case .files(let paths): paths.joined(separator: " ")
        case .git(let ref): ref
        }
    }
}
