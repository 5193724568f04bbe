// Only where CloudKit does not exist (CKContainer.swift says why).
#if !canImport(CloudKit)
import Foundation

extension NSCoder {
    /// An optional value of an archive: nil when the key is absent. Foundation on Linux counts
    /// decoding an absent key as a failure of the whole archive, so optional keys are read only
    /// when present.
    func decodeIfPresent<T: NSObject & NSSecureCoding>(_ type: T.Type, forKey key: String) -> T? {
        containsValue(forKey: key) ? decodeObject(of: type, forKey: key) : nil
    }
}
#endif
