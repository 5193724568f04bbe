// expect: operator function '==' requires that 'ServerIndexes.None' conform to 'ServerQueryableIndex'
// A server query's condition on a field the schema does not mark `queryable`, which CloudKit
// would refuse at run time ("field is not marked queryable"), does not compile.
import SyncRuntime

func misuse() -> ServerQuery<Recipe> {
    ServerQuery<Recipe>().filter(\.minutes == 30)
}
