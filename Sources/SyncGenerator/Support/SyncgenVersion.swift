/// The version of syncgen: printed by `syncgen --version`.
public enum SyncgenVersion {
    public static let current = "0.1.0"
}
