import Foundation

/// Where in a schema file's structure the cursor is, read from the text around it (the file may
/// not parse while it is being typed): the keys of the mappings that hold it, and whether it is at
/// a key or at the value of one.
struct CursorContext: Equatable {
    /// The keys from the file's top down to the mapping the cursor is in, e.g.
    /// `["models", "Note", "fields", "title"]` inside a field's mapping.
    var path: [String]
    /// The key whose value the cursor is at; nil at a key.
    var valueOf: String?
    /// The word already typed before the cursor.
    var prefix: String

    init(path: [String], valueOf: String?, prefix: String) {
        self.path = path
        self.valueOf = valueOf
        self.prefix = prefix
    }

    init(lines: TextLines, position: Position) {
        let line = Array(lines.line(position.line))
        let column = lines.column(of: position) - 1
        let before = Array(line.prefix(column))
        let indent = before.prefix { $0 == " " }.count
        var path = Self.ancestors(of: position.line, indent: indent, in: lines)
        // The word being typed: back to a space or a flow indicator.
        let wordStart = before.lastIndex { " ,[{:".unicodeScalars.contains($0) }.map { $0 + 1 } ?? 0
        prefix = String(String.UnicodeScalarView(before[wordStart...]))
        let text = String(String.UnicodeScalarView(before.dropFirst(indent)))
        // A key on this line, with a value after it: `title: { type: in`, `scopes: [pri`, `type: in`.
        guard let colon = Self.firstColon(in: text) else {
            self.path = path
            valueOf = nil
            return
        }
        let lineKey = String(text[..<colon]).trimmingCharacters(in: .whitespaces)
        let rest = String(text[text.index(after: colon)...])
        guard let flow = Self.innermostOpenFlow(in: rest) else {
            self.path = path
            valueOf = lineKey
            return
        }
        path.append(lineKey)
        let inside = String(rest[rest.index(after: flow.index)...])
        if flow.bracket == "[" {
            // A list: its key is what precedes the bracket, in the flow mapping around it or on the line.
            let before = String(rest[..<flow.index])
            let key = Self.lastKey(in: before) ?? lineKey
            if key == lineKey { path.removeLast() }
            self.path = path
            valueOf = key
            return
        }
        // Inside `{ ... }`: at a key, or at the value of the key after the last ',' or '{'.
        let entry = inside.split(separator: ",", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        if let entryColon = Self.firstColon(in: entry) {
            valueOf = entry[..<entryColon].trimmingCharacters(in: .whitespaces)
        } else {
            valueOf = nil
        }
        self.path = path
    }

    /// The keys of the block mappings above a line, outermost first: each line above with less
    /// indentation that holds a key opens the mapping below it.
    private static func ancestors(of line: Int, indent: Int, in lines: TextLines) -> [String] {
        var keys: [String] = []
        var limit = indent
        var index = line - 1
        while index >= 0, limit > 0 {
            let text = Array(lines.line(index))
            let lineIndent = text.prefix { $0 == " " }.count
            let content = String(String.UnicodeScalarView(text.dropFirst(lineIndent)))
            if lineIndent < limit, !content.isEmpty, !content.hasPrefix("#"), let colon = firstColon(in: content) {
                keys.insert(content[..<colon].trimmingCharacters(in: .whitespaces), at: 0)
                limit = lineIndent
            }
            index -= 1
        }
        return keys
    }

    /// A key's colon: a ':' followed by a space or the end, outside quotes and brackets.
    private static func firstColon(in text: String) -> String.Index? {
        var depth = 0
        var found: String.Index?
        forEachUnquoted(in: text) { index, character in
            switch character {
            case "{", "[": depth += 1
            case "}", "]": depth -= 1
            case ":" where depth == 0:
                let next = text.index(after: index)
                if next == text.endIndex || text[next] == " " {
                    found = index
                    return false
                }
            default: break
            }
            return true
        }
        return found
    }

    /// The last `{` or `[` not yet closed, outside quotes.
    private static func innermostOpenFlow(in text: String) -> (index: String.Index, bracket: Character)? {
        var open: [(index: String.Index, bracket: Character)] = []
        forEachUnquoted(in: text) { index, character in
            switch character {
            case "{", "[": open.append((index, character))
            case "}", "]": if !open.isEmpty { open.removeLast() }
            default: break
            }
            return true
        }
        return open.last
    }

    /// Hands `body` each character outside quotes (the quotes themselves left out), until it
    /// returns false: both scans above read a line as YAML's flow style does.
    private static func forEachUnquoted(in text: String, _ body: (String.Index, Character) -> Bool) {
        var quote: Character?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if !body(index, character) {
                return
            }
            index = text.index(after: index)
        }
    }

    /// The key of the last `key:` in a flow mapping's text.
    private static func lastKey(in text: String) -> String? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        let start = text[..<colon].lastIndex { $0 == "{" || $0 == "," }.map { text.index(after: $0) } ?? text.startIndex
        let key = text[start..<colon].trimmingCharacters(in: .whitespaces)
        return key.isEmpty ? nil : key
    }
}
