/// A document's text by lines, to turn the schema's places (1-based line, column counted in
/// Unicode scalars, as the validator reports them) into the protocol's (0-based line, character
/// counted in UTF-16 code units, its default encoding) and back.
struct TextLines {
    private let lines: [Substring.UnicodeScalarView]

    init(_ text: String) {
        // YAML breaks lines at \n, \r\n and \r; so does the protocol.
        var lines: [Substring.UnicodeScalarView] = []
        let scalars = text.unicodeScalars
        var lineStart = scalars.startIndex
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if scalar == "\n" || scalar == "\r" {
                lines.append(scalars[lineStart..<index])
                var next = scalars.index(after: index)
                if scalar == "\r", next < scalars.endIndex, scalars[next] == "\n" { next = scalars.index(after: next) }
                index = next
                lineStart = next
            } else {
                index = scalars.index(after: index)
            }
        }
        lines.append(scalars[lineStart..<scalars.endIndex])
        self.lines = lines
    }

    var count: Int { lines.count }

    /// Line `line` (0-based), without its break; empty past the end.
    func line(_ line: Int) -> Substring.UnicodeScalarView {
        lines.indices.contains(line) ? lines[line] : Substring.UnicodeScalarView()
    }

    /// The protocol's position of a schema location's line and column.
    func position(line: Int, column: Int) -> Position {
        let text = self.line(line - 1)
        let units = text.prefix(max(0, column - 1)).reduce(0) { $0 + $1.utf16.count }
        return Position(line: max(0, line - 1), character: units)
    }

    /// The schema's 1-based column of a protocol position (a character inside a surrogate pair
    /// counts as the scalar it is part of).
    func column(of position: Position) -> Int {
        var units = 0
        var column = 1
        for scalar in line(position.line) {
            units += scalar.utf16.count
            if units > position.character { break }
            column += 1
        }
        return column
    }

    /// The range of the word a diagnostic points at: from its place to the end of the plain or
    /// quoted scalar there, or one character when nothing word-like is there.
    func wordRange(line: Int, column: Int) -> Range {
        let start = position(line: line, column: column)
        let scalars = Array(self.line(line - 1).dropFirst(max(0, column - 1)))
        var length = 0
        if let first = scalars.first, first == "\"" || first == "'" {
            length = 1
            while length < scalars.count {
                length += 1
                if scalars[length - 1] == first, !(first == "\"" && length >= 2 && scalars[length - 2] == "\\") { break }
            }
        } else {
            while length < scalars.count, !Self.endsWord(scalars[length], after: length > 0 ? scalars[length - 1] : nil) { length += 1 }
        }
        let units = scalars.prefix(max(1, length)).reduce(0) { $0 + $1.utf16.count }
        return Range(start: start, end: Position(line: start.line, character: start.character + units))
    }

    /// A plain scalar ends at a flow indicator, at `: ` or at ` #`.
    private static func endsWord(_ scalar: Unicode.Scalar, after previous: Unicode.Scalar?) -> Bool {
        switch scalar {
        case ",", "[", "]", "{", "}": true
        case ":", " ", "\t": true
        case "#": previous == " " || previous == "\t"
        default: false
        }
    }
}

/// A place in a document as the protocol counts it.
struct Position: Equatable, Comparable {
    var line: Int
    var character: Int

    static func < (lhs: Position, rhs: Position) -> Bool { (lhs.line, lhs.character) < (rhs.line, rhs.character) }

    init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    init?(_ json: JSON?) {
        guard let line = json?["line"]?.int, let character = json?["character"]?.int, line >= 0, character >= 0 else { return nil }
        self.init(line: line, character: character)
    }

    var json: JSON { ["line": .number(Double(line)), "character": .number(Double(character))] }
}

struct Range: Equatable {
    var start: Position
    var end: Position

    var json: JSON { ["start": start.json, "end": end.json] }

    func contains(_ position: Position) -> Bool { start <= position && position <= end }
}
