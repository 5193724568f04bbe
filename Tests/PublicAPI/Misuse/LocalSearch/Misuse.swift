// expect: instance method 'matching' requires that 'Recipe' conform to 'TextSearchable'
// A search of the store's text for a model with no field the schema marks `searchable` does not
// compile: the store keeps no index of its words.
import SyncRuntime

func misuse() -> Query<Recipe> {
    Query<Recipe>().matching("soup")
}
