import Foundation
import SyncCore

/// The binary form record fields take in SQLite, for LocalCloud and the local store alike: compact,
/// exact (doubles keep every bit) and fast to read back.
///
/// Layout: a count, then per field its name and a tagged value. Numbers are little-endian (dates
/// as seconds since 2001, the way `Date` keeps them, so they read back exactly);
/// lengths and counts are LEB128 varints.
package enum FieldsCodec {
    private enum Tag: UInt8 {
        case string = 1, int64, double, date, bytes, location, reference, asset, list
    }

    package struct DecodingError: Error, CustomStringConvertible {
        package var description: String
    }

    package static func encode(_ fields: RecordFields) -> Data {
        var writer = Writer()
        writer.varint(UInt64(fields.count))
        for (name, value) in fields {
            writer.string(name)
            writer.value(value)
        }
        return Data(writer.bytes)
    }

    package static func decode(_ data: Data) throws(DecodingError) -> RecordFields {
        var reader = Reader(data: data)
        let count = try reader.varint()
        var fields = RecordFields(minimumCapacity: Int(min(count, 1024)))
        for _ in 0..<count {
            let name = try reader.string()
            fields.append(name, try reader.value())
        }
        return fields
    }

    /// One value alone, under the empty name: how a column of a list, a location or an asset
    /// (or a dropped field's mixed values) keeps it, and how the store's SQL functions take a
    /// value to compare with one.
    package static func encode(value: SyncFieldValue) -> Data {
        var fields = RecordFields()
        fields.append("", value)
        return encode(fields)
    }

    /// The value `encode(value:)` wrote; nil when the data holds none under the empty name.
    package static func decodeValue(_ data: Data) throws(DecodingError) -> SyncFieldValue? {
        try decode(data)[""]
    }

    /// Writes into an array, made `Data` once at the end: appending to `Data` byte by byte
    /// costs several times as much.
    private struct Writer {
        var bytes: [UInt8] = []

        init() {
            bytes.reserveCapacity(256)
        }

        mutating func varint(_ value: UInt64) {
            var remaining = value
            repeat {
                var byte = UInt8(remaining & 0x7F)
                remaining >>= 7
                if remaining != 0 { byte |= 0x80 }
                bytes.append(byte)
            } while remaining != 0
        }

        mutating func fixed(_ value: UInt64) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func string(_ text: String) {
            varint(UInt64(text.utf8.count))
            bytes.append(contentsOf: text.utf8)
        }

        mutating func value(_ value: SyncFieldValue) {
            switch value {
            case .string(let text):
                bytes.append(Tag.string.rawValue)
                string(text)
            case .int64(let number):
                bytes.append(Tag.int64.rawValue)
                fixed(UInt64(bitPattern: number))
            case .double(let number):
                bytes.append(Tag.double.rawValue)
                fixed(number.bitPattern)
            case .date(let date):
                bytes.append(Tag.date.rawValue)
                fixed(date.timeIntervalSinceReferenceDate.bitPattern)
            case .bytes(let contents):
                bytes.append(Tag.bytes.rawValue)
                varint(UInt64(contents.count))
                bytes.append(contentsOf: contents)
            case .location(let location):
                bytes.append(Tag.location.rawValue)
                fixed(location.latitude.bitPattern)
                fixed(location.longitude.bitPattern)
            case .reference(let reference):
                bytes.append(Tag.reference.rawValue)
                string(reference.recordName)
                bytes.append(reference.action == .deleteSelf ? 1 : 0)
            case .asset(let asset):
                bytes.append(Tag.asset.rawValue)
                string(asset.fileURL.absoluteString)
            case .list(let items):
                bytes.append(Tag.list.rawValue)
                varint(UInt64(items.count))
                for item in items { self.value(item) }
            }
        }
    }

    private struct Reader {
        let data: Data
        var offset: Int

        init(data: Data) {
            self.data = data
            self.offset = data.startIndex
        }

        mutating func byte() throws(DecodingError) -> UInt8 {
            guard offset < data.endIndex else { throw DecodingError(description: "fields end early") }
            defer { offset += 1 }
            return data[offset]
        }

        mutating func varint() throws(DecodingError) -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let next = try byte()
                result |= UInt64(next & 0x7F) << shift
                if next & 0x80 == 0 { return result }
                shift += 7
                guard shift < 64 else { throw DecodingError(description: "bad length") }
            }
        }

        mutating func fixed() throws(DecodingError) -> UInt64 {
            guard data.endIndex - offset >= 8 else { throw DecodingError(description: "fields end early") }
            var value: UInt64 = 0
            for index in 0..<8 { value |= UInt64(data[offset + index]) << (8 * UInt64(index)) }
            offset += 8
            return value
        }

        mutating func bytes() throws(DecodingError) -> Data {
            let count = Int(try varint())
            guard count >= 0, data.endIndex - offset >= count else { throw DecodingError(description: "fields end early") }
            defer { offset += count }
            return data[offset..<offset + count]
        }

        mutating func string() throws(DecodingError) -> String {
            String(decoding: try bytes(), as: UTF8.self)
        }

        mutating func value() throws(DecodingError) -> SyncFieldValue {
            guard let tag = Tag(rawValue: try byte()) else { throw DecodingError(description: "unknown value tag") }
            switch tag {
            case .string: return .string(try string())
            case .int64: return .int64(Int64(bitPattern: try fixed()))
            case .double: return .double(Double(bitPattern: try fixed()))
            case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: try fixed())))
            case .bytes: return .bytes(Data(try bytes()))
            case .location: return .location(SyncLocation(latitude: Double(bitPattern: try fixed()), longitude: Double(bitPattern: try fixed())))
            case .reference:
                let name = try string()
                return .reference(SyncReference(recordName: name, action: try byte() == 1 ? .deleteSelf : .none))
            case .asset:
                guard let url = URL(string: try string()) else { throw DecodingError(description: "bad asset URL") }
                return .asset(SyncAsset(fileURL: url))
            case .list:
                let count = try varint()
                var items: [SyncFieldValue] = []
                items.reserveCapacity(Int(min(count, 4096)))
                for _ in 0..<count { items.append(try value()) }
                return .list(items)
            }
        }
    }
}
