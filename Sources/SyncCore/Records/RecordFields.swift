/// A record's field values by name, kept in the order they were set (schema order for generated
/// models, which is also the order the debugger shows).
///
/// Stored as a small array: records hold tens of fields, and a linear scan over short names (which
/// Swift stores inline) beats hashing every name, the cost that dominates encoding and decoding.
/// Equality and hashing ignore order.
public struct RecordFields: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// A field: its name and value.
    public typealias Element = (name: String, value: SyncFieldValue)

    @usableFromInline var entries: [Element]

    /// No fields.
    public init() {
        entries = []
    }

    /// No fields, with room for `minimumCapacity` before it grows.
    public init(minimumCapacity: Int) {
        entries = []
        entries.reserveCapacity(minimumCapacity)
    }

    /// Fields from a literal; a repeated name keeps its last value.
    public init(dictionaryLiteral elements: (String, SyncFieldValue)...) {
        entries = []
        for (name, value) in elements { self[name] = value }
    }

    /// The value named `name`; setting nil removes it.
    @inlinable
    public subscript(name: String) -> SyncFieldValue? {
        get {
            for entry in entries where entry.name == name { return entry.value }
            return nil
        }
        set {
            if let index = entries.firstIndex(where: { $0.name == name }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append((name, newValue))
            }
        }
    }

    /// Adds a value under a name the fields do not hold yet, without looking for it first: how
    /// generated encoders write each schema field once.
    @inlinable
    public mutating func append(_ name: String, _ value: SyncFieldValue) {
        assert(self[name] == nil, "field '\(name)' is already set")
        entries.append((name, value))
    }

    /// How many fields have a value.
    public var count: Int { entries.count }
    /// Whether no field has a value.
    public var isEmpty: Bool { entries.isEmpty }
    /// The fields' names, in the order they were set.
    public var names: [String] { entries.map(\.name) }
    /// The fields' values, in the order they were set.
    public var values: [SyncFieldValue] { entries.map(\.value) }

    public func makeIterator() -> IndexingIterator<[Element]> {
        entries.makeIterator()
    }

    public static func == (lhs: RecordFields, rhs: RecordFields) -> Bool {
        lhs.count == rhs.count && lhs.entries.allSatisfy { rhs[$0.name] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent: the sum of each entry's own hash.
        var sum = 0
        for entry in entries {
            var entryHasher = Hasher()
            entryHasher.combine(entry.name)
            entryHasher.combine(entry.value)
            sum &+= entryHasher.finalize()
        }
        hasher.combine(count)
        hasher.combine(sum)
    }

    public var description: String {
        "[" + entries.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
