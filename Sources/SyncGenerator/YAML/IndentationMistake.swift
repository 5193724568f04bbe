/// What a YAML syntax error means when its cause is indentation, the mistake a hand-edited schema
/// makes most: libyaml reports "did not find expected key" or "mapping values are not allowed in
/// this context" where it stopped, which says nothing of the line whose indentation is wrong or
/// of what it should be. Read from the text around the place libyaml stopped.
struct IndentationMistake: Equatable {
    var message: String
    /// 1-based, where the indentation went wrong: the first character of the misplaced line.
    var line: Int
    var column: Int

    /// The mistake behind an error libyaml reported on `problemLine` (0-based), or nil when the
    /// indentation there is not the cause.
    init?(problem: String, problemLine: Int, text: [UInt8]) {
        let lines = Self.lines(text)
        guard lines.indices.contains(problemLine) else { return nil }
        let line = lines[problemLine]
        let indent = Self.indent(line)
        if line.prefix(while: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }).contains(UInt8(ascii: "\t")) {
            self.init(message: "line \(problemLine + 1) is indented with a tab: YAML indents with spaces only", line: problemLine + 1, column: 1)
            return
        }
        guard problem.contains("did not find expected key") || problem.contains("mapping values are not allowed") else { return nil }
        guard let previous = (0..<problemLine).last(where: { Self.isContent(lines[$0]) }) else { return nil }
        let previousIndent = Self.indent(lines[previous])
        let previousKey = Self.key(lines[previous])
        let key = Self.key(line).map { "'\($0)'" } ?? "it"
        if indent > previousIndent, let previousKey, Self.hasScalarValue(lines[previous]) {
            // Deeper than a key that already has a value: YAML reads the line as more of that value.
            self.init(
                message: "line \(problemLine + 1) is indented \(indent) spaces, more than '\(previousKey)' on line \(previous + 1) (\(previousIndent)), so YAML reads it as more of the value of '\(previousKey)'; indent \(key) \(previousIndent) spaces, as '\(previousKey)' is",
                line: problemLine + 1, column: indent + 1)
            return
        }
        // The keys a line could line up with: the one above it, and each key that holds it.
        var levels: [(indent: Int, key: String, line: Int)] = []
        var limit = Int.max
        for index in stride(from: problemLine - 1, through: 0, by: -1) where Self.isContent(lines[index]) {
            let lineIndent = Self.indent(lines[index])
            guard lineIndent < limit, let name = Self.key(lines[index]) else { continue }
            levels.append((lineIndent, name, index + 1))
            limit = lineIndent
            if lineIndent == 0 { break }
        }
        guard !levels.isEmpty, !levels.contains(where: { $0.indent == indent }) else { return nil }
        let below = levels.filter { $0.indent < indent }.max { $0.indent < $1.indent }
        let above = levels.filter { $0.indent > indent }.min { $0.indent < $1.indent }
        let choices = [above, below].compactMap { $0 }.map { "\($0.indent) spaces, as '\($0.key)' on line \($0.line)" }
        self.init(
            message: "line \(problemLine + 1) is indented \(indent) spaces, which lines up with no key above it: indent \(key) " + choices.joined(separator: ", or "),
            line: problemLine + 1, column: indent + 1)
    }

    init(message: String, line: Int, column: Int) {
        self.message = message
        self.line = line
        self.column = column
    }

    private static func lines(_ text: [UInt8]) -> [[UInt8]] {
        text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            Array(line.last == UInt8(ascii: "\r") ? line.dropLast() : line)
        }
    }

    private static func indent(_ line: [UInt8]) -> Int { line.prefix { $0 == UInt8(ascii: " ") }.count }

    /// Not blank, not a comment.
    private static func isContent(_ line: [UInt8]) -> Bool {
        guard let first = line.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return false }
        return first != UInt8(ascii: "#")
    }

    /// The key a line starts with (`key:`, plain, after any `- `), nil for a line without one.
    private static func key(_ line: [UInt8]) -> String? {
        var rest = line.drop { $0 == UInt8(ascii: " ") }
        if rest.starts(with: [UInt8(ascii: "-"), UInt8(ascii: " ")]) { rest = rest.dropFirst(2) }
        guard let colon = rest.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let after = rest.index(after: colon)
        guard after == rest.endIndex || rest[after] == UInt8(ascii: " ") else { return nil }
        let key = String(decoding: rest[..<colon], as: UTF8.self)
        return key.isEmpty || key.contains(" ") && !key.hasPrefix("\"") ? nil : key
    }

    /// Whether the line's key has a plain value on the line (which a deeper line would continue).
    private static func hasScalarValue(_ line: [UInt8]) -> Bool {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let value = line[line.index(after: colon)...].drop { $0 == UInt8(ascii: " ") }
        guard let first = value.first else { return false }
        return !"{[|>&*#!\"'".utf8.contains(first)
    }
}
