/// A schema file's bytes and the path diagnostics should name it by (as the user wrote it, e.g.
/// `Schema/Notes.yaml`). Reading it is the caller's business: the pipeline never touches the disk.
package struct SchemaSource: Sendable, Hashable {
    package var path: String
    package var bytes: [UInt8]

    package init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }

    package init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }
}
