import SyncCore
import SyncPorts

/// This device among the uploads a record names (`SyncRecord.uploadVersions`): a random ID made
/// the first time the store sends a save, and kept in it. A record keeps the newest upload of each
/// device that saved it, so a device whose reply was never read finds its own save in a version
/// however many saves of others followed (`CloudVersionArrival`'s ancestor).
enum UploadDevice {
    /// The device's ID, made now if the store has none yet.
    static func id(in store: any EngineState) throws -> String {
        if let id = try store.state(SyncStateKeys.uploadDevice) { return id }
        let id = SyncRecord.newUploadDevice()
        try store.setState(SyncStateKeys.uploadDevice, id)
        return id
    }
}
