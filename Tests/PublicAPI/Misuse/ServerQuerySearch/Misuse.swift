// expect: instance method 'matching' requires that 'Recipe' conform to 'ServerTextSearchable'
// A text search of a model with no field the schema marks `searchable` does not compile.
import SyncRuntime

func misuse() -> ServerQuery<Recipe> {
    ServerQuery<Recipe>().matching("soup")
}
