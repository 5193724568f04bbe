// Only where CloudKit does not exist (CKContainer.swift says why).
#if !canImport(CloudKit)
import Foundation

/// A position in a change feed (Apple, `CKServerChangeToken`): no public initialiser; a client
/// keeps it archived (`NSSecureCoding`) and hands it back.
public final class CKServerChangeToken: NSObject, NSSecureCoding, NSCopying {
    public static var supportsSecureCoding: Bool { true }

    /// What the stand-in's server wrote: LocalCloud's token.
    package let archive: Data

    package init(archive: Data) {
        self.archive = archive
    }

    public func encode(with coder: NSCoder) {
        coder.encode(archive as NSData, forKey: "token")
    }

    public init?(coder: NSCoder) {
        guard let archive = coder.decodeObject(of: NSData.self, forKey: "token") else { return nil }
        self.archive = archive as Data
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? CKServerChangeToken)?.archive == archive
    }

    public override var hash: Int { archive.hashValue }
}
#endif
