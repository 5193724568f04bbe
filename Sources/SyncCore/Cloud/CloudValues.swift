import Foundation

/// Where the cloud says an account stands.
public enum AccountStatus: String, Sendable, Hashable, CaseIterable {
    case available, noAccount, restricted, temporarilyUnavailable
}

/// A position in a change feed, opaque to clients: they keep the last one and hand it back.
/// CloudKit's `CKServerChangeToken` has no usable initialiser; its gateway archives it
/// (`NSSecureCoding`), and LocalCloud writes its own form.
public struct ChangeToken: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The gateway's archive of the position.
    public var archive: Data

    /// A token as its gateway archived it (a gateway builds them; clients only keep them).
    public init(archive: Data) {
        self.archive = archive
    }

    /// What the local store keeps (`sync_state` is text): the archive in base64 behind a marker.
    package var storedValue: String { Self.storedPrefix + archive.base64EncodedString() }

    /// A token read back from the local store. A store of the layout before archives keeps
    /// LocalCloud's tokens as plain text, which is their archive's contents.
    package init(storedValue: String) {
        if storedValue.hasPrefix(Self.storedPrefix), let archive = Data(base64Encoded: String(storedValue.dropFirst(Self.storedPrefix.count))) {
            self.archive = archive
        } else {
            self.archive = Data(storedValue.utf8)
        }
    }

    private static let storedPrefix = "archive:"

    public var description: String { CloudArchive.describe(archive) }
}

/// How an opaque archive reads in a message or the debugger: its text when it is text (LocalCloud's
/// archives are), otherwise its size.
enum CloudArchive {
    static func describe(_ archive: Data) -> String {
        if let text = String(data: archive, encoding: .utf8), text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) {
            return text
        }
        return "\(archive.count) archived bytes"
    }
}

/// How a save treats the server's copy of a record.
public enum SavePolicy: String, Sendable, Hashable {
    /// Fails with `serverRecordChanged` unless the record carries the server's current change tag.
    case ifServerRecordUnchanged
    /// Writes the fields the record carries over the server's, unconditionally; others stay.
    case changedKeys
    /// Replaces the server's record, unconditionally.
    case allKeys
}
