/// A place in a schema file: the file as the user named it, and a 1-based line and column.
///
/// Columns count characters (Unicode scalars), not bytes, as editors do.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var file: String
    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = UInt32(clamping: newValue) }
    }
    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = UInt32(clamping: newValue) }
    }
    // Every node, name and word of a schema carries a location: kept to 32 bits each (4 billion
    // lines or columns), a location is a quarter smaller, and so is much of a loaded schema.
    private var storedLine: UInt32
    private var storedColumn: UInt32

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.storedLine = UInt32(clamping: line)
        self.storedColumn = UInt32(clamping: column)
    }

    public var description: String { "\(file):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
