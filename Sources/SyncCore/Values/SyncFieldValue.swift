import Foundation

/// A record field's value, shaped like CloudKit's: a schema `bool` travels as `int64` (0 or 1), a
/// reference as a record name within the record's own zone, an asset as a local file.
public enum SyncFieldValue: Hashable, Sendable, CustomStringConvertible {
    case string(String)
    case int64(Int64)
    case double(Double)
    case date(Date)
    case bytes(Data)
    case location(SyncLocation)
    case reference(SyncReference)
    case asset(SyncAsset)
    /// A homogeneous list of any of the above except assets.
    case list([SyncFieldValue])

    /// The CloudKit type name, for messages ("expected string, found int64").
    public var typeName: String {
        switch self {
        case .string: "string"
        case .int64: "int64"
        case .double: "double"
        case .date: "date"
        case .bytes: "bytes"
        case .location: "location"
        case .reference: "reference"
        case .asset: "asset"
        case .list(let items): "list of " + (items.first?.typeName ?? "nothing")
        }
    }

    public var description: String {
        switch self {
        case .string(let text): String(reflecting: text)
        case .int64(let number): "\(number)"
        case .double(let number): "\(number)"
        case .date(let date): "\(date)"
        case .bytes(let data): "\(data.count) bytes"
        case .location(let location): "\(location)"
        case .reference(let reference): "\(reference)"
        case .asset(let asset): "\(asset)"
        case .list(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        }
    }
}

/// A geographic position.
public struct SyncLocation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Degrees north of the equator (negative: south).
    public var latitude: Double
    /// Degrees east of Greenwich (negative: west).
    public var longitude: Double

    /// A position.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public var description: String { "(\(latitude), \(longitude))" }
}

/// What CloudKit does to a referencing record when its target is deleted.
public enum ReferenceAction: String, Hashable, Sendable, Codable {
    case none, deleteSelf
}

/// A reference field's value: another record of the same zone, by name.
public struct SyncReference: Hashable, Sendable, CustomStringConvertible {
    /// The target record's name (in the same zone).
    public var recordName: String
    /// What CloudKit does to the referencing record when the target is deleted.
    public var action: ReferenceAction

    /// A reference to the record of this name.
    public init(recordName: String, action: ReferenceAction = .none) {
        self.recordName = recordName
        self.action = action
    }

    public var description: String { "→\(recordName)" + (action == .deleteSelf ? " (deleteSelf)" : "") }
}

/// An asset's contents: a file on this device.
public struct SyncAsset: Hashable, Sendable, CustomStringConvertible {
    /// Where the file is on this device.
    public var fileURL: URL

    /// The contents of the file at `fileURL`.
    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    public var description: String { "asset \(fileURL.lastPathComponent)" }
}
