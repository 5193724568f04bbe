// expect: cannot convert value of type 'KeyPath<Recipe.ServerFields, ServerListField<Recipe, String, ServerIndexes.Queryable>>' to expected argument type 'KeyPath<Recipe.ServerFields, ServerField<Recipe, [String], Index>>'
// A list field is queried by membership (`.contains(\.tags, "vegan")`): an equality with a whole
// list, which CloudKit cannot run, does not compile.
import SyncRuntime

func misuse() -> ServerQuery<Recipe> {
    ServerQuery<Recipe>().filter(\.tags == ["vegan"])
}
