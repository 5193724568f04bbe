/// A file the generator produces: its name in the output folder and its text.
package struct GeneratedFile: Hashable, Sendable {
    package var name: String
    package var contents: String

    package init(name: String, contents: String) {
        self.name = name
        self.contents = contents
    }
}
