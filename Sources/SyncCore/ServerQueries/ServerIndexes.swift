/// A field CloudKit answers conditions on: its deployed schema marks it `QUERYABLE`. A server
/// query's condition compiles only on a field whose index type conforms.
public protocol ServerQueryableIndex {}

/// A field CloudKit sorts by: `SORTABLE`. A server query's sort compiles only on one.
public protocol ServerSortableIndex {}

/// A field CloudKit's text search reads: `SEARCHABLE`.
public protocol ServerSearchableIndex {}

/// The indexes a schema field has in CloudKit (its `index:` list), as a type: what a generated
/// model's `ServerFields` say of each field, so that a server query on a field without the index
/// it needs does not compile, where CloudKit would refuse it at run time ("field is not marked
/// queryable").
public enum ServerIndexes {
    /// No index: the field can be fetched, not searched or sorted.
    public enum None {}
    /// `index: [queryable]`.
    public enum Queryable: ServerQueryableIndex {}
    /// `index: [sortable]`.
    public enum Sortable: ServerSortableIndex {}
    /// `index: [searchable]`.
    public enum Searchable: ServerSearchableIndex {}
    /// `index: [queryable, sortable]`.
    public enum QueryableSortable: ServerQueryableIndex, ServerSortableIndex {}
    /// `index: [queryable, searchable]`.
    public enum QueryableSearchable: ServerQueryableIndex, ServerSearchableIndex {}
    /// `index: [sortable, searchable]`.
    public enum SortableSearchable: ServerSortableIndex, ServerSearchableIndex {}
    /// `index: [queryable, sortable, searchable]`.
    public enum QueryableSortableSearchable: ServerQueryableIndex, ServerSortableIndex, ServerSearchableIndex {}
}
