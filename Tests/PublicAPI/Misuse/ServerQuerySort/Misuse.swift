// expect: instance method 'sorted(by:_:)' requires that 'ServerIndexes.Queryable' conform to 'ServerSortableIndex'
// A server query sorted by a field the schema does not mark `sortable` does not compile.
import SyncRuntime

func misuse() -> ServerQuery<Recipe> {
    ServerQuery<Recipe>().sorted(by: \.title)
}
