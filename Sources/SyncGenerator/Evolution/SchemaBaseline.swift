/// Where the schema a new one is compared with is: what production runs. Read by the command
/// line (`--baseline`, `--baseline-git`) and the language server, not here: the generator does
/// no I/O.
package enum SchemaBaseline: Sendable, Equatable {
    /// Schema files or folders on disk.
    case files([String])
    /// The same paths as the new schema, as they are at a git commit, branch or tag.
    case git(ref: String)
}
