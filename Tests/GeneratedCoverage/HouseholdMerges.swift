import SyncCore

// What an app writes for a field its schema marks `merge: custom`: the generated conformance to
// `CustomMergingModel` asks for this function by name.
extension Household {
    /// Both mottos, in a fixed order, so every device settles on the same text.
    public static func merge(_ field: String, ancestor: Household?, local: Household, server: Household, into merged: inout Household) {
        guard field == "motto" else { return }
        merged.motto = Set([local.motto, server.motto]).sorted().joined(separator: " / ")
    }
}
