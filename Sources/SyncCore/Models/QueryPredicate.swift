import Foundation

/// Which models a ``Query`` keeps, written with the model's key paths (no field names in strings):
///
/// ```swift
/// Query<Note>().filter(\.title == "Milk" && \.priority > 2 || \.note == nil)
/// Query<ListItem>().filter(.hasPrefix(\.text, "Buy") && !.isChild(of: "chores"))
/// ```
///
/// Two-valued, whatever a field holds: a comparison with a field that holds no value is false,
/// and `!` turns false into true (so `!(\.note == "x")` keeps the notes without one). Strings
/// compare by their UTF-8 bytes (case and accents matter), numbers by value (an integer and a
/// double compare as numbers), dates by time.
public struct QueryPredicate<Model: SyncModel>: Sendable {
    /// A field of the model as a query reads it: the key path that names it, and its value in a
    /// model (a reference as the name of its target; nil when the field holds none).
    package struct Field: Sendable {
        package let keyPath: AnyKeyPath & Sendable
        package let value: @Sendable (Model) -> SyncFieldValue?
    }

    /// How two values compare.
    package enum Comparison: Sendable {
        case equal, less, lessOrEqual, greater, greaterOrEqual
    }

    package indirect enum Node: Sendable {
        case compare(Field, Comparison, SyncFieldValue)
        case isNil(Field)
        case isIn(Field, [SyncFieldValue])
        case hasPrefix(Field, String)
        case contains(Field, String)
        /// The field is a reference to the record, or a list holding one.
        case references(Field, String)
        /// The list field holds the value.
        case holds(Field, SyncFieldValue)
        case isChild(of: String)
        /// The record's creator, or its last modifier, is that user (`RecordAuthorship`).
        case authoredBy(RecordAuthorship.Role, String)
        /// A condition on related records (`QueryPredicate+Related`).
        case related(RelatedCondition<Model>)
        case and(Node, Node)
        case or(Node, Node)
        case not(Node)
    }

    package let node: Node

    package init(_ node: Node) {
        self.node = node
    }

    /// Whether a model is kept, with its authorship as the store keeps it, and the answers of
    /// its related conditions (`relatedConditions`, evaluated once for all the models).
    package func matches(_ model: Model, authorship: (Model) -> RecordAuthorship, related: (RelatedCondition<Model>.Identity, Model) -> Bool = { _, _ in false }) -> Bool {
        withoutActuallyEscaping(authorship) { authorship in
            withoutActuallyEscaping(related) { related in Self.evaluate(node, model, Context(authorship: authorship, related: related)) }
        }
    }

    private struct Context {
        let authorship: (Model) -> RecordAuthorship
        let related: (RelatedCondition<Model>.Identity, Model) -> Bool
    }

    /// The conditions on related records the predicate holds.
    package var relatedConditions: [RelatedCondition<Model>] { Self.related(node) }

    private static func related(_ node: Node) -> [RelatedCondition<Model>] {
        switch node {
        case .related(let condition): [condition]
        case .and(let left, let right), .or(let left, let right): related(left) + related(right)
        case .not(let inner): related(inner)
        default: []
        }
    }

    /// Whether the predicate reads who made or changed a record (which the model does not hold).
    package var readsAuthorship: Bool { Self.readsAuthorship(node) }

    private static func readsAuthorship(_ node: Node) -> Bool {
        switch node {
        case .authoredBy: true
        case .and(let left, let right), .or(let left, let right): readsAuthorship(left) || readsAuthorship(right)
        case .not(let inner): readsAuthorship(inner)
        default: false
        }
    }

    private static func evaluate(_ node: Node, _ model: Model, _ context: Context) -> Bool {
        switch node {
        case .compare(let field, let comparison, let value):
            guard let stored = field.value(model), let order = QueryValueOrder.compare(stored, value) else { return false }
            switch comparison {
            case .equal: return order == 0
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            case .greaterOrEqual: return order >= 0
            }
        case .isNil(let field):
            return field.value(model) == nil
        case .isIn(let field, let values):
            guard let stored = field.value(model) else { return false }
            return values.contains { QueryValueOrder.compare(stored, $0) == 0 }
        case .hasPrefix(let field, let prefix):
            guard case .string(let text)? = field.value(model) else { return false }
            return text.utf8.starts(with: prefix.utf8)
        case .contains(let field, let part):
            guard case .string(let text)? = field.value(model) else { return false }
            return QueryValueOrder.contains(text, part)
        case .references(let field, let recordName):
            switch field.value(model) {
            case .string(let name)?: return name == recordName
            case .list(let names)?: return names.contains(.string(recordName))
            default: return false
            }
        case .holds(let field, let element):
            guard case .list(let items)? = field.value(model) else { return false }
            return items.contains { QueryValueOrder.compare($0, element) == 0 }
        case .isChild(let parent):
            return model.parentRecordName == parent
        case .authoredBy(let role, let user):
            return context.authorship(model).person(role) == user
        case .related(let condition):
            return context.related(condition.identity, model)
        case .and(let left, let right):
            return evaluate(left, model, context) && evaluate(right, model, context)
        case .or(let left, let right):
            return evaluate(left, model, context) || evaluate(right, model, context)
        case .not(let inner):
            return !evaluate(inner, model, context)
        }
    }

    // MARK: - Building

    package static func field<Value: SyncFieldConvertible>(_ keyPath: KeyPath<Model, Value> & Sendable) -> Field {
        Field(keyPath: keyPath, value: { $0[keyPath: keyPath].syncFieldValue })
    }

    package static func field<Value: SyncFieldConvertible>(_ keyPath: KeyPath<Model, Value?> & Sendable) -> Field {
        Field(keyPath: keyPath, value: { $0[keyPath: keyPath]?.syncFieldValue })
    }

    /// The text field starts with `prefix` (byte for byte).
    public static func hasPrefix(_ keyPath: KeyPath<Model, String> & Sendable, _ prefix: String) -> QueryPredicate {
        QueryPredicate(.hasPrefix(field(keyPath), prefix))
    }

    /// The optional text field holds a text that starts with `prefix`.
    public static func hasPrefix(_ keyPath: KeyPath<Model, String?> & Sendable, _ prefix: String) -> QueryPredicate {
        QueryPredicate(.hasPrefix(field(keyPath), prefix))
    }

    /// The text field contains `part` (byte for byte).
    public static func contains(_ keyPath: KeyPath<Model, String> & Sendable, _ part: String) -> QueryPredicate {
        QueryPredicate(.contains(field(keyPath), part))
    }

    /// The optional text field holds a text that contains `part`.
    public static func contains(_ keyPath: KeyPath<Model, String?> & Sendable, _ part: String) -> QueryPredicate {
        QueryPredicate(.contains(field(keyPath), part))
    }

    /// The list field holds `element`.
    public static func contains<Element: SyncFieldConvertible>(_ keyPath: KeyPath<Model, [Element]> & Sendable, _ element: Element) -> QueryPredicate {
        QueryPredicate(.holds(field(keyPath), element.syncFieldValue))
    }

    /// The field's value is one of `values`.
    public static func isIn<Value: SyncFieldConvertible>(_ keyPath: KeyPath<Model, Value> & Sendable, _ values: [Value]) -> QueryPredicate {
        QueryPredicate(.isIn(field(keyPath), values.map(\.syncFieldValue)))
    }

    /// The optional field holds one of `values`.
    public static func isIn<Value: SyncFieldConvertible>(_ keyPath: KeyPath<Model, Value?> & Sendable, _ values: [Value]) -> QueryPredicate {
        QueryPredicate(.isIn(field(keyPath), values.map(\.syncFieldValue)))
    }

    /// The record was created by the user of that user record name (the signed-in user:
    /// ``SyncConstants/currentUserOwnerName``), as ``RecordAuthorship`` reads it: "the items Bob
    /// added".
    public static func createdBy(_ userRecordName: String) -> QueryPredicate {
        QueryPredicate(.authoredBy(.creator, userRecordName))
    }

    /// The version the cloud last returned was saved by that user.
    public static func lastModifiedBy(_ userRecordName: String) -> QueryPredicate {
        QueryPredicate(.authoredBy(.lastModifier, userRecordName))
    }

    /// The model's parent (its `parent:` in the schema) is the record of that name: its children.
    public static func isChild(of parentRecordName: String) -> QueryPredicate {
        QueryPredicate(.isChild(of: parentRecordName))
    }

    /// The reference points at `target`: the records that reference it.
    public static func references<Target>(_ keyPath: KeyPath<Model, RecordReference<Target>> & Sendable, _ target: RecordReference<Target>) -> QueryPredicate {
        QueryPredicate(.references(Field(keyPath: keyPath, value: { model in
            let reference = model[keyPath: keyPath]
            return reference.isSet ? .string(reference.recordName) : nil
        }), target.recordName))
    }

    /// The optional reference points at `target`.
    public static func references<Target>(_ keyPath: KeyPath<Model, RecordReference<Target>?> & Sendable, _ target: RecordReference<Target>) -> QueryPredicate {
        QueryPredicate(.references(Field(keyPath: keyPath, value: { $0[keyPath: keyPath].map { .string($0.recordName) } }), target.recordName))
    }

    /// The list of references holds one to `target`.
    public static func references<Target>(_ keyPath: KeyPath<Model, [RecordReference<Target>]> & Sendable, _ target: RecordReference<Target>) -> QueryPredicate {
        QueryPredicate(.references(Field(keyPath: keyPath, value: { .list($0[keyPath: keyPath].map { .string($0.recordName) }) }), target.recordName))
    }

    /// Both keep the model.
    public static func && (left: QueryPredicate, right: QueryPredicate) -> QueryPredicate {
        QueryPredicate(.and(left.node, right.node))
    }

    /// Either keeps the model.
    public static func || (left: QueryPredicate, right: QueryPredicate) -> QueryPredicate {
        QueryPredicate(.or(left.node, right.node))
    }

    /// The predicate does not keep the model.
    public static prefix func ! (predicate: QueryPredicate) -> QueryPredicate {
        QueryPredicate(.not(predicate.node))
    }
}

// MARK: - Comparisons of a field with a value

/// The field equals `value`.
public func == <Model, Value: SyncFieldConvertible>(field: KeyPath<Model, Value> & Sendable, value: Value) -> QueryPredicate<Model> {
    QueryPredicate(.compare(QueryPredicate.field(field), .equal, value.syncFieldValue))
}

/// The optional field holds `value` (`== nil`: holds none).
public func == <Model, Value: SyncFieldConvertible>(field: KeyPath<Model, Value?> & Sendable, value: Value?) -> QueryPredicate<Model> {
    guard let value else { return QueryPredicate(.isNil(QueryPredicate.field(field))) }
    return QueryPredicate(.compare(QueryPredicate.field(field), .equal, value.syncFieldValue))
}

/// The field does not equal `value`.
public func != <Model, Value: SyncFieldConvertible>(field: KeyPath<Model, Value> & Sendable, value: Value) -> QueryPredicate<Model> {
    !(field == value)
}

/// The optional field does not hold `value` (`!= nil`: holds one).
public func != <Model, Value: SyncFieldConvertible>(field: KeyPath<Model, Value?> & Sendable, value: Value?) -> QueryPredicate<Model> {
    !(field == value)
}

/// The reference points at `target`.
public func == <Model, Target>(field: KeyPath<Model, RecordReference<Target>> & Sendable, target: RecordReference<Target>) -> QueryPredicate<Model> {
    .references(field, target)
}

/// The field is less than `value`.
public func < <Model, Value: QueryComparable>(field: KeyPath<Model, Value> & Sendable, value: Value) -> QueryPredicate<Model> {
    QueryPredicate(.compare(QueryPredicate.field(field), .less, value.syncFieldValue))
}

/// The field is at most `value`.
public func <= <Model, Value: QueryComparable>(field: KeyPath<Model, Value> & Sendable, value: Value) -> QueryPredicate<Model> {
    QueryPredicate(.compare(QueryPredicate.field(field), .lessOrEqual, value.syncFieldValue))
}

/// The field is greater than `value`.
public func > <Model, Value: QueryComparable>(field: KeyPath<Model, Value> & Sendable, value: Value) -> QueryPredicate<Model> {
    QueryPredicate(.compare(QueryPredicate.field(field), .greater, value.syncFieldValue))
}

/// The field is at least `value`.
public func >= <Model, Value: QueryComparable>(field: KeyPath<Model, Value> & Sendable, value: Value) -> QueryPredicate<Model> {
    QueryPredicate(.compare(QueryPredicate.field(field), .greaterOrEqual, value.syncFieldValue))
}

/// The optional field holds a value less than `value`.
public func < <Model, Value: QueryComparable>(field: KeyPath<Model, Value?> & Sendable, value: Value) -> QueryPredicate<Model> {
    QueryPredicate(.compare(QueryPredicate.field(field), .less, value.syncFieldValue))
}

/// The optional field holds a value of at most `value`.
public func <= <Model, Value: QueryComparable>(field: KeyPath<Model, Value?> & Sendable, value: Value) -> QueryPredicate<Model> {
    QueryPredicate(.compare(QueryPredicate.field(field), .lessOrEqual, value.syncFieldValue))
}

/// The optional field holds a value greater than `value`.
public func > <Model, Value: QueryComparable>(field: KeyPath<Model, Value?> & Sendable, value: Value) -> QueryPredicate<Model> {
    QueryPredicate(.compare(QueryPredicate.field(field), .greater, value.syncFieldValue))
}

/// The optional field holds a value of at least `value`.
public func >= <Model, Value: QueryComparable>(field: KeyPath<Model, Value?> & Sendable, value: Value) -> QueryPredicate<Model> {
    QueryPredicate(.compare(QueryPredicate.field(field), .greaterOrEqual, value.syncFieldValue))
}
