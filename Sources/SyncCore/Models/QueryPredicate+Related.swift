import Foundation

/// Conditions on related records: the record a reference (or the parent) points at, and the
/// records of another type that point at the model. Typed by the schema's references, like every
/// condition; the store runs each in the query's one SQL statement (a subquery of the other
/// type's table).
///
/// ```swift
/// // Items whose list is not archived.
/// Query<ListItem>().filter(.references(\.parent, where: \.archived == false))
/// // Lists with at least one open item, and those with at least five.
/// Query<SharedList>().filter(.isReferenced(by: \ListItem.parent, where: \.done == false))
/// Query<SharedList>().filter(.isReferenced(by: \ListItem.parent, atLeast: 5))
/// ```
///
/// A reference whose target is not in the store (not pulled yet, deleted) points at no record:
/// `references(_:where:)` is false for it, and `!` makes it true, as for any comparison.
extension QueryPredicate {
    /// The reference points at a record `target` keeps.
    public static func references<Target>(_ keyPath: KeyPath<Model, RecordReference<Target>> & Sendable, where target: QueryPredicate<Target>) -> QueryPredicate {
        referenced(Field(keyPath: keyPath) { model in
            let reference = model[keyPath: keyPath]
            return reference.isSet ? .string(reference.recordName) : nil
        }, target)
    }

    /// The optional reference, or the parent (`\.parent`), points at a record `target` keeps.
    public static func references<Target>(_ keyPath: KeyPath<Model, RecordReference<Target>?> & Sendable, where target: QueryPredicate<Target>) -> QueryPredicate {
        referenced(Field(keyPath: keyPath) { $0[keyPath: keyPath].map { .string($0.recordName) } }, target)
    }

    /// The list of references holds one to a record `target` keeps.
    public static func references<Target>(_ keyPath: KeyPath<Model, [RecordReference<Target>]> & Sendable, where target: QueryPredicate<Target>) -> QueryPredicate {
        referenced(Field(keyPath: keyPath) { .list($0[keyPath: keyPath].map { .string($0.recordName) }) }, target)
    }

    /// At least `count` records of another type point at the model through `keyPath` (their
    /// reference, or their parent: `\ListItem.parent`) and are kept by `other` (every one, when
    /// nil): "lists with an open item".
    public static func isReferenced<Other: SyncModel>(
        by keyPath: KeyPath<Other, RecordReference<Model>?> & Sendable, where other: QueryPredicate<Other>? = nil, atLeast count: Int = 1
    ) -> QueryPredicate {
        referencing(keyPath, other, atLeast: count) { $0[keyPath: keyPath].map { [$0.recordName] } ?? [] }
    }

    /// At least `count` records of another type whose required reference at `keyPath` points at
    /// the model, kept by `other`.
    public static func isReferenced<Other: SyncModel>(
        by keyPath: KeyPath<Other, RecordReference<Model>> & Sendable, where other: QueryPredicate<Other>? = nil, atLeast count: Int = 1
    ) -> QueryPredicate {
        referencing(keyPath, other, atLeast: count) { record in
            let reference = record[keyPath: keyPath]
            return reference.isSet ? [reference.recordName] : []
        }
    }

    /// At least `count` records of another type whose list of references at `keyPath` holds one
    /// to the model, kept by `other`.
    public static func isReferenced<Other: SyncModel>(
        by keyPath: KeyPath<Other, [RecordReference<Model>]> & Sendable, where other: QueryPredicate<Other>? = nil, atLeast count: Int = 1
    ) -> QueryPredicate {
        referencing(keyPath, other, atLeast: count) { $0[keyPath: keyPath].map(\.recordName) }
    }

    private static func referenced<Target: SyncModel>(_ field: Field, _ target: QueryPredicate<Target>) -> QueryPredicate {
        QueryPredicate(.related(RelatedCondition(
            recordTypes: Set([Target.recordType]).union(target.relatedRecordTypes),
            sql: { writer, model in writer.referenced(field, of: model, by: target) },
            evaluate: { records in
                let names = Set(try records.models(Target.self, where: target).map(\.recordName))
                return { model in
                    switch field.value(model) {
                    case .string(let name)?: names.contains(name)
                    case .list(let items)?: items.contains { if case .string(let name) = $0 { names.contains(name) } else { false } }
                    default: false
                    }
                }
            })))
    }

    private static func referencing<Other: SyncModel>(
        _ keyPath: AnyKeyPath & Sendable, _ other: QueryPredicate<Other>?, atLeast count: Int, names: @escaping @Sendable (Other) -> [String]
    ) -> QueryPredicate {
        let count = max(1, count)
        return QueryPredicate(.related(RelatedCondition(
            recordTypes: Set([Other.recordType]).union(other?.relatedRecordTypes ?? []),
            sql: { writer, model in writer.referencing(model, from: Other.self, through: keyPath, where: other, atLeast: count) },
            evaluate: { records in
                var pointing: [String: Int] = [:]
                for record in try records.models(Other.self, where: other) {
                    for name in Set(names(record)) { pointing[name, default: 0] += 1 }
                }
                let kept = Set(pointing.filter { $0.value >= count }.keys)
                return { model in kept.contains(model.recordName) }
            })))
    }
}

/// A condition on related records, as the store writes it in SQL (`sql`, given the store's
/// writer) or runs it in Swift (`evaluate`, given the store's models: once per query, the
/// answer a test of each model).
package struct RelatedCondition<Model: SyncModel>: Sendable {
    /// What tells the conditions of one predicate apart, for the answers of `evaluate`.
    package final class Identity: Sendable {}

    package let identity = Identity()
    /// The record types the condition reads besides the model's own: a commit that changes one
    /// may change the answer.
    package let recordTypes: Set<String>
    package let sql: @Sendable (inout any RelatedConditionWriter, Model.Type) -> String?
    package let evaluate: @Sendable (any RelatedRecords) throws -> @Sendable (Model) -> Bool
}

/// The store's SQL for a related condition: a subquery of the other type's table, its arguments
/// appended in the order of the SQL. Nil where it has no SQL form.
package protocol RelatedConditionWriter {
    /// The model's `field` (a reference, a list of references, or the parent) points at a
    /// record of `Target` that `target` keeps.
    mutating func referenced<Model: SyncModel, Target: SyncModel>(_ field: QueryPredicate<Model>.Field, of model: Model.Type, by target: QueryPredicate<Target>) -> String?
    /// At least `count` records of `Other` point at the model through `keyPath`, kept by `other`.
    mutating func referencing<Model: SyncModel, Other: SyncModel>(
        _ model: Model.Type, from other: Other.Type, through keyPath: AnyKeyPath, where predicate: QueryPredicate<Other>?, atLeast count: Int
    ) -> String?
}

/// The store's models, for a related condition run in Swift.
package protocol RelatedRecords {
    /// The stored models of a type that `predicate` keeps (every one for nil).
    func models<Other: SyncModel>(_ type: Other.Type, where predicate: QueryPredicate<Other>?) throws -> [Other]
}

extension QueryPredicate {
    /// The record types the predicate's related conditions read.
    package var relatedRecordTypes: Set<String> {
        relatedConditions.reduce(into: []) { $0.formUnion($1.recordTypes) }
    }
}

extension SyncModel {
    /// Whether the key path is the model's parent (its `parent:` in the schema).
    package static func isParent(_ keyPath: AnyKeyPath) -> Bool {
        _syncFields.fields.contains { $0.key == RecordFieldNames.storedParent && $0.descriptor == nil && $0.keyPath.map { $0 as AnyKeyPath == keyPath } == true }
    }
}
