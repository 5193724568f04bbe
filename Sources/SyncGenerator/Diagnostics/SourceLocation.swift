/// A place in a schema file: the file as the user named it, and a 1-based line and column.
///
/// Columns count characters (Unicode scalars), not bytes, as editors do.
package struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    package var file: String {
        get { fileName.name }
        set { fileName = SourceFileName(newValue) }
    }
    package var line: Int {
        get { Int(storedLine) }
        set { storedLine = UInt32(clamping: newValue) }
    }
    package var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = UInt32(clamping: newValue) }
    }
    // Every node, name and word of a schema carries a location: kept to 32 bits each (4 billion
    // lines or columns), a location is a quarter smaller, and so is much of a loaded schema.
    private var storedLine: UInt32
    private var storedColumn: UInt32
    // A number, not the name: a location is then copied without reference counting.
    private var fileName: SourceFileName

    package init(file: String, line: Int, column: Int) {
        self.init(file: SourceFileName(file), line: line, column: column)
    }

    /// A location in a file already named once (the loader names its file once, not per node).
    init(file: SourceFileName, line: Int, column: Int) {
        self.fileName = file
        self.storedLine = UInt32(clamping: line)
        self.storedColumn = UInt32(clamping: column)
    }

    package var description: String { "\(file):\(line):\(column)" }

    package static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        if lhs.fileName != rhs.fileName { return lhs.file < rhs.file }
        return (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}
