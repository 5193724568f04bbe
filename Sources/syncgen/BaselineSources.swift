import SyncGenerator

extension Baseline {
    /// The baseline's schema files; `newPaths` name the new schema, which a git baseline reads at
    /// its ref.
    func load(newPaths: [String]) throws(UsageError) -> [SchemaSource] {
        switch self {
        case .files(let paths): try SchemaFiles.load(paths).map(\.source)
        case .git(let ref): try GitBaseline.load(ref: ref, paths: newPaths)
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
