import Foundation
import SyncRuntime
import SyncLocalCloud

/// The bridge a library without a generator writes: `Mirror` to read a model's fields, and a
/// `Decoder` over the record's fields to build it back (Mirror cannot write properties).
enum ReflectiveBridge {
    static func encode<Model>(_ model: Model) -> [String: SyncFieldValue] {
        var fields: [String: SyncFieldValue] = [:]
        for child in Mirror(reflecting: model).children {
            guard let label = child.label, label != "recordName", let value = fieldValue(child.value) else { continue }
            fields[label] = value
        }
        return fields
    }

    private static func fieldValue(_ value: Any) -> SyncFieldValue? {
        switch value {
        case let text as String: return .string(text)
        case let number as Int64: return .int64(number)
        case let number as Double: return .double(number)
        case let flag as Bool: return .int64(flag ? 1 : 0)
        case let date as Date: return .date(date)
        case let data as Data: return .bytes(data)
        case let location as SyncLocation: return .location(location)
        case let list as [Any]: return .list(list.compactMap(fieldValue))
        default:
            // Optionals arrive wrapped: unwrap through Mirror.
            let mirror = Mirror(reflecting: value)
            guard mirror.displayStyle == .optional else { return nil }
            return mirror.children.first.flatMap { fieldValue($0.value) }
        }
    }

    static func decode<Model: Decodable>(_ type: Model.Type, recordName: String, fields: [String: SyncFieldValue]) throws -> Model {
        try Model(from: FieldDecoder(fields: fields, recordName: recordName))
    }
}

/// A `Decoder` that reads a model straight from record fields.
private struct FieldDecoder: Decoder {
    let fields: [String: SyncFieldValue]
    let recordName: String
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(FieldContainer<Key>(fields: fields, recordName: recordName))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "records are keyed"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "records are keyed"))
    }
}

private struct FieldContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: [String: SyncFieldValue]
    let recordName: String
    var codingPath: [any CodingKey] = []
    var allKeys: [Key] { fields.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { key.stringValue == "recordName" || fields[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool { !contains(key) }

    private func value(_ key: Key) throws -> SyncFieldValue {
        guard let value = fields[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
        }
        return value
    }

    private func mismatch<T>(_ type: T.Type, _ key: Key) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath + [key], debugDescription: "wrong type"))
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        if key.stringValue == "recordName" { return recordName }
        switch try value(key) {
        case .string(let text): return text
        case .reference(let reference): return reference.recordName
        default: throw mismatch(type, key)
        }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        guard case .int64(let number) = try value(key) else { throw mismatch(type, key) }
        return number != 0
    }

    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        guard case .int64(let number) = try value(key) else { throw mismatch(type, key) }
        return number
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        guard case .double(let number) = try value(key) else { throw mismatch(type, key) }
        return number
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let value = try value(key)
        switch value {
        case .date(let date) where type == Date.self: return date as! T
        case .bytes(let data) where type == Data.self: return data as! T
        case .location(let location) where type == SyncLocation.self: return location as! T
        case .list(let items) where type == [String].self:
            return items.compactMap { item -> String? in
                if case .string(let text) = item { return text }
                return nil
            } as! T
        default: throw mismatch(type, key)
        }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw mismatch(type, key)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw mismatch([Any].self, key) }
    func superDecoder() throws -> any Decoder { throw mismatch(Any.self, Key(stringValue: "super")!) }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw mismatch(Any.self, key) }
}

/// The bridge that goes through JSON, in its best ordinary use: one `JSONEncoder` and one
/// `JSONDecoder`, made once and kept, and one JSON pass each way. The whole model is one JSON
/// value in one bytes field (what apps that store Codable blobs in a record do), which is faster
/// than a field per property, though CloudKit can then neither index nor query the fields.
final class JSONBridge<Model: Codable> {
    static var payloadField: String { "payload" }
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()

    func encode(_ model: Model) throws -> [String: SyncFieldValue] {
        [Self.payloadField: .bytes(try encoder.encode(model))]
    }

    func decode(fields: [String: SyncFieldValue]) throws -> Model {
        guard case .bytes(let data) = fields[Self.payloadField] else {
            throw DecodingError.valueNotFound(Data.self, .init(codingPath: [], debugDescription: "no payload"))
        }
        return try decoder.decode(Model.self, from: data)
    }
}
