/// The version of syncgen: printed by `syncgen --version`.
package enum SyncgenVersion {
    package static let current = "0.1.0"
}
