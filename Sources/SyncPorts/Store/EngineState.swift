import Foundation
import SyncCore

/// The engine's small state: change tokens, the signed-in user, pending share acceptances.
/// One topic of ``StoreTransaction``.
package protocol EngineState: AnyObject {
    func state(_ key: String) throws -> String?
    func setState(_ key: String, _ value: String?) throws
    /// Keys of the engine's state that start with `prefix`.
    func stateKeys(prefix: String) throws -> [String]
}
