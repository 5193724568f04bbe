import SyncCore

extension ListItem {
    /// A property that is no field of the schema: a query that reads it has no SQL form, and runs
    /// in Swift over the rows. What the tests of that path use.
    var isDairy: Bool { tags.contains("dairy") }
}
