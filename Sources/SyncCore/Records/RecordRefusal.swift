/// Why CloudKit would refuse to save a record, by the rules one record can break on its own: its
/// name and its size. One rule for everyone: the local store refuses such a record at the write
/// that makes it (so it never reaches the push), and LocalCloud refuses it as CloudKit does.
public enum RecordRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// CloudKit's record names are non-empty ASCII without control characters, at most 255 bytes,
    /// and never start with `_`.
    case invalidRecordName(recordType: String, recordName: String, reason: String)
    /// More than ``CloudKitLimits/maxRecordBytes``, by ``RecordSize`` (asset contents excluded).
    case tooLarge(recordType: String, recordName: String, bytes: Int, limit: Int)
    /// A NaN or an infinity, in a double, a date or a location (or a list of them). Whether
    /// CloudKit keeps one is not documented, and its web format (JSON) has no way to write one:
    /// the stricter reading refuses it rather than let another number come back.
    case notFinite(recordType: String, recordName: String, field: String, value: String)

    /// The refusal CloudKit would answer a save of `record` with, or nil.
    public static func check(_ record: SyncRecord) -> RecordRefusal? {
        if let reason = recordNameProblem(record.id.recordName) {
            return .invalidRecordName(recordType: record.recordType, recordName: record.id.recordName, reason: reason)
        }
        if let (field, value) = nonFiniteNumber(in: record.fields) ?? nonFiniteNumber(in: record.encryptedFields) {
            return .notFinite(recordType: record.recordType, recordName: record.id.recordName, field: field, value: value)
        }
        let bytes = RecordSize.of(record)
        if bytes > CloudKitLimits.maxRecordBytes {
            return .tooLarge(recordType: record.recordType, recordName: record.id.recordName, bytes: bytes, limit: CloudKitLimits.maxRecordBytes)
        }
        return nil
    }

    /// Why `name` cannot be a CloudKit record name, or nil when it can. Apple's text asks for
    /// ASCII; a control character (U+0000 to U+001F, U+007F) is ASCII too, and is refused all
    /// the same: the stricter reading, since nothing says CloudKit keeps one (its web services
    /// carry names in JSON and URLs), and a NUL ends the name in C APIs below (a save of such a
    /// name was once acknowledged and never sent).
    public static func recordNameProblem(_ name: String) -> String? {
        // Bytes, not characters: every save asks, so this stays cheap.
        let bytes = name.utf8
        guard let first = bytes.first else { return "a record name cannot be empty" }
        // Over the string's own buffer when it has one: a loop over its bytes, not its indices.
        let isPrintableASCII = bytes.withContiguousStorageIfAvailable { buffer in buffer.allSatisfy(isPrintableASCIIByte) } ?? bytes.allSatisfy(isPrintableASCIIByte)
        if !isPrintableASCII {
            if bytes.contains(where: { $0 >= 0x80 }) { return "a record name must be ASCII" }
            let control = String(bytes.first { !isPrintableASCIIByte($0) } ?? 0, radix: 16, uppercase: true)
            return "a record name cannot hold a control character, and this one holds U+\(String(repeating: "0", count: 4 - control.count))\(control)"
        }
        if bytes.count > CloudKitLimits.maxNameLength { return "a record name is at most \(CloudKitLimits.maxNameLength) characters long, and this one is \(bytes.count)" }
        if first == UInt8(ascii: "_") { return "a record name cannot start with an underscore" }
        return nil
    }

    private static func isPrintableASCIIByte(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F
    }

    /// The first field holding a NaN or an infinity, and how it reads; nil when every number is
    /// finite.
    public static func nonFiniteNumber(in fields: RecordFields) -> (field: String, value: String)? {
        for (name, value) in fields {
            if let found = nonFinite(value) { return (name, found) }
        }
        return nil
    }

    private static func nonFinite(_ value: SyncFieldValue) -> String? {
        switch value {
        case .double(let number): number.isFinite ? nil : "\(number)"
        case .date(let date): date.timeIntervalSinceReferenceDate.isFinite ? nil : "a date \(date.timeIntervalSinceReferenceDate) seconds from 2001"
        case .location(let location): location.latitude.isFinite && location.longitude.isFinite ? nil : "\(location)"
        case .list(let items): items.lazy.compactMap(nonFinite).first
        case .string, .int64, .bytes, .reference, .asset: nil
        }
    }

    /// The code CloudKit answers with.
    public var code: CloudErrorCode {
        switch self {
        case .invalidRecordName, .notFinite: .invalidArguments
        case .tooLarge: .limitExceeded
        }
    }

    public var description: String {
        switch self {
        case .invalidRecordName(let type, let name, let reason):
            "\(type) '\(Self.shown(name))' cannot be saved: \(reason)"
        case .tooLarge(let type, let name, let bytes, let limit):
            "\(type) '\(Self.shown(name))' holds \(bytes) bytes of fields; CloudKit takes at most \(limit) per record (asset contents excluded): move large values into an asset field"
        case .notFinite(let type, let name, let field, let value):
            "\(type) '\(Self.shown(name))' cannot be saved: its field '\(field)' holds \(value), and only finite numbers sync; use an optional field for a missing value"
        }
    }

    /// A long name, cut to what a message can show; a control character in it is written as its
    /// escape (`\u{0}`), so the message shows what the name holds.
    private static func shown(_ name: String) -> String {
        let cut = name.count > 40 ? name.prefix(40) + "..." : name
        guard cut.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return cut }
        return cut.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
    }

    /// The refusal as the error CloudKit would answer the save with.
    public var cloudError: CloudError { CloudError(code, description) }
}
