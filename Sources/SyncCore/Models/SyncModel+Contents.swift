extension SyncModel {
    /// Whether this copy of a record holds what `other` holds: the same record name, parent and
    /// value of every field that travels to the cloud. What `==` compares besides is left out:
    /// `ownerName`, which each account spells its own way (its own zones are
    /// `SyncConstants.currentUserOwnerName` on its devices, and the owner's user record name on
    /// a participant's), and local-only fields, which are each device's own. Server-owned fields,
    /// which the server sets, are left out too. So two devices of two users agree on a shared
    /// record when this says so, where `==` never does.
    public func hasSameContents(as other: Self) -> Bool {
        recordName == other.recordName && parentRecordName == other.parentRecordName && encodeRemoteFields() == other.encodeRemoteFields()
    }
}
