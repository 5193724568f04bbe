import CYAML

/// Reads YAML text into ``YAMLNode`` trees through libyaml. This is the only place that talks to
/// libyaml.
///
/// The tree is built iteratively from libyaml's event stream (never by recursion), so no input can
/// overflow the stack; nesting and alias expansion are bounded by `Limits` and reported past them.
/// The loader supports one document per file, anchors and aliases; it rejects merge keys (`<<`),
/// tags and further documents with a diagnostic each.
package struct YAMLLoader: Sendable {
    package struct Limits: Sendable {
        /// Deepest nesting of mappings and sequences. A schema needs about six levels.
        package var maxDepth: Int
        /// Most nodes the document may hold once aliases are expanded ("billion laughs" guard).
        package var maxExpandedNodes: Int

        package init(maxDepth: Int = 64, maxExpandedNodes: Int = 5_000_000) {
            self.maxDepth = maxDepth
            self.maxExpandedNodes = maxExpandedNodes
        }
    }

    /// The root node (nil for an empty stream or a document holding only a null), and everything
    /// wrong with the text.
    package struct Result: Sendable {
        package var root: YAMLNode?
        package var diagnostics: [Diagnostic]
        /// False when reading stopped early (a syntax error, too deep, too large): `root` is then nil.
        package var isComplete: Bool
    }

    package var limits: Limits

    package init(limits: Limits = Limits()) {
        self.limits = limits
    }

    package func load(_ bytes: [UInt8], file: String) -> Result {
        var builder = TreeBuilder(file: file, limits: limits, bytes: bytes)
        let started = withParser(reading: bytes) { parser -> Bool in
            builder.run(&parser)
            return true
        }
        if started == nil {
            builder.diagnostics.append(Diagnostic(.yamlSyntax, "could not start the YAML parser (out of memory)", at: SourceLocation(file: file, line: 1, column: 1)))
        }
        let isComplete = builder.isComplete
        return Result(root: isComplete ? builder.root : nil, diagnostics: builder.diagnostics, isComplete: isComplete)
    }

    /// libyaml's own event parse of `bytes` and nothing else (no strings, no tree): the floor the
    /// benchmark measures loading against. The number of events, or nil at a syntax error.
    package static func countEvents(in bytes: [UInt8]) -> Int? {
        withParser(reading: bytes) { parser -> Int? in
            var event = yaml_event_t()
            var count = 0
            while yaml_parser_parse(&parser, &event) != 0 {
                count += 1
                let finished = event.type == YAML_STREAM_END_EVENT
                yaml_event_delete(&event)
                if finished { return count }
            }
            return nil
        } ?? nil
    }
}

/// Runs `body` with a libyaml parser reading `bytes`; nil when libyaml cannot start (out of memory).
private func withParser<T>(reading bytes: [UInt8], _ body: (inout yaml_parser_t) -> T) -> T? {
    bytes.withUnsafeBufferPointer { buffer -> T? in
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) != 0 else { return nil }
        defer { yaml_parser_delete(&parser) }
        // libyaml needs a valid pointer even for empty input.
        var empty: UInt8 = 0
        if let base = buffer.baseAddress, buffer.count > 0 {
            yaml_parser_set_input_string(&parser, base, buffer.count)
        } else {
            yaml_parser_set_input_string(&parser, &empty, 0)
        }
        return body(&parser)
    }
}

/// Turns libyaml events into a node tree with an explicit stack.
private struct TreeBuilder {
    /// A mapping or sequence being read. Frames are changed in place on the stack (never taken
    /// off and put back), so appending an entry never copies the entries before it: loading stays
    /// linear however long one mapping or list is.
    private struct Frame {
        enum Kind { case sequence, mapping }
        let kind: Kind
        let location: SourceLocation
        let anchor: String?
        var items: [YAMLNode] = []
        var entries: [YAMLMappingEntry] = []
        /// A mapping's key whose value is still to come.
        var pendingKey: (key: YAMLScalar, location: SourceLocation, skipValue: Bool)?
        /// The nodes this one expands to, itself included.
        var size = 1

        init(_ kind: Kind, at location: SourceLocation, anchor: String?) {
            self.kind = kind
            self.location = location
            self.anchor = anchor
        }
    }

    let file: String
    private let fileName: SourceFileName
    let limits: YAMLLoader.Limits
    let bytes: [UInt8]
    var root: YAMLNode?
    var diagnostics: [Diagnostic] = []
    private var stack: [Frame] = []
    /// Anchored nodes with the number of nodes each expands to.
    private var anchors: [String: (node: YAMLNode, size: Int)] = [:]
    private var expandedNodes = 0
    private var documentCount = 0
    private(set) var isComplete = false

    init(file: String, limits: YAMLLoader.Limits, bytes: [UInt8]) {
        self.file = file
        self.fileName = SourceFileName(file)
        self.limits = limits
        self.bytes = bytes
    }

    mutating func run(_ parser: inout yaml_parser_t) {
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) != 0 else {
                diagnostics.append(parserError(parser))
                return
            }
            let keepGoing = handle(event)
            let finished = event.type == YAML_STREAM_END_EVENT
            yaml_event_delete(&event)
            if finished {
                isComplete = true
                return
            }
            if !keepGoing { return }
        }
    }

    // MARK: - Events

    /// Handles one event; false stops reading (the rest of the file could only add noise).
    private mutating func handle(_ event: yaml_event_t) -> Bool {
        let here = location(event.start_mark)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documentCount += 1
            if documentCount > 1 {
                diagnostics.append(Diagnostic(.multipleDocuments, "a schema file holds one YAML document; this is a second one (split it into its own file)", at: here))
                // The first document is whole: keep it, so its own problems are reported too.
                isComplete = true
                return false
            }
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let text = string(data.value, count: data.length)
            let scalar = YAMLScalar(text, style: style(data.style))
            if data.tag != nil {
                diagnostics.append(Diagnostic(.tagUnsupported, "YAML tags ('\(tag(data.tag))') are not supported; write the value plainly or quote it", at: here))
            }
            guard count(1, at: here) else { return false }
            add(YAMLNode(.scalar(scalar), at: here), size: 1, anchor: cString(data.anchor))
        case YAML_ALIAS_EVENT:
            let name = string(event.data.alias.anchor)
            guard let anchored = anchors[name] else {
                diagnostics.append(Diagnostic(.unknownAnchor, "alias '*\(name)' names no anchor defined before it", at: here))
                add(YAMLNode(.scalar(YAMLScalar("")), at: here), size: 1, anchor: nil)
                return true
            }
            guard count(anchored.size, at: here) else { return false }
            add(anchored.node, size: anchored.size, anchor: nil)
        case YAML_SEQUENCE_START_EVENT:
            let data = event.data.sequence_start
            if data.tag != nil {
                diagnostics.append(Diagnostic(.tagUnsupported, "YAML tags ('\(tag(data.tag))') are not supported", at: here))
            }
            guard push(at: here) else { return false }
            stack.append(Frame(.sequence, at: here, anchor: cString(data.anchor)))
        case YAML_MAPPING_START_EVENT:
            let data = event.data.mapping_start
            if data.tag != nil {
                diagnostics.append(Diagnostic(.tagUnsupported, "YAML tags ('\(tag(data.tag))') are not supported", at: here))
            }
            guard push(at: here) else { return false }
            stack.append(Frame(.mapping, at: here, anchor: cString(data.anchor)))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            let frame = stack.removeLast()
            switch frame.kind {
            case .sequence: add(YAMLNode(.sequence(frame.items), at: frame.location), size: frame.size, anchor: frame.anchor)
            case .mapping: add(YAMLNode(.mapping(frame.entries), at: frame.location), size: frame.size, anchor: frame.anchor)
            }
        default:
            break
        }
        return true
    }

    private mutating func push(at here: SourceLocation) -> Bool {
        guard count(1, at: here) else { return false }
        guard stack.count < limits.maxDepth else {
            diagnostics.append(Diagnostic(.nestingTooDeep, "the YAML nests more than \(limits.maxDepth) levels deep; a schema never needs that many", at: here))
            return false
        }
        return true
    }

    /// Counts `nodes` more nodes in the expanded document; false once past the limit.
    private mutating func count(_ nodes: Int, at here: SourceLocation) -> Bool {
        expandedNodes += nodes
        guard expandedNodes <= limits.maxExpandedNodes else {
            diagnostics.append(Diagnostic(.aliasExpansionTooLarge, "the document expands to more than \(limits.maxExpandedNodes) nodes once aliases are resolved (aliases repeated inside aliases?)", at: here))
            return false
        }
        return true
    }

    /// Attaches a finished node of `size` expanded nodes to its parent (or makes it the root).
    private mutating func add(_ node: YAMLNode, size: Int, anchor: String?) {
        if let anchor {
            anchors[anchor] = (node, size)
        }
        guard !stack.isEmpty else {
            if case .scalar(let scalar) = node.content, scalar.value == .null {
                root = nil
            } else {
                root = node
            }
            return
        }
        let top = stack.count - 1
        stack[top].size += size
        switch stack[top].kind {
        case .sequence:
            stack[top].items.append(node)
        case .mapping:
            if let pending = stack[top].pendingKey {
                if !pending.skipValue {
                    stack[top].entries.append(YAMLMappingEntry(key: pending.key, keyLocation: pending.location, value: node))
                }
                stack[top].pendingKey = nil
            } else {
                let (key, skip) = mappingKey(node)
                stack[top].pendingKey = (key, node.location, skip)
            }
        }
    }

    /// A mapping key must be a scalar; merge keys are refused. Returns the key and whether the
    /// value that follows is to be dropped.
    private mutating func mappingKey(_ node: YAMLNode) -> (YAMLScalar, Bool) {
        guard let scalar = node.scalar else {
            diagnostics.append(Diagnostic(.wrongValueKind, "a mapping key must be plain text, not \(node.kindDescription)", at: node.location))
            return (YAMLScalar(""), true)
        }
        if scalar.style == .plain && scalar.text == "<<" {
            diagnostics.append(Diagnostic(.mergeKeyUnsupported, "YAML merge keys ('<<') are not supported; write the keys out, or use an alias for the whole value", at: node.location))
            return (scalar, true)
        }
        return (scalar, false)
    }

    // MARK: - libyaml values

    private func style(_ style: yaml_scalar_style_t) -> YAMLScalar.Style {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }

    private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?, count: Int) -> String {
        guard let pointer, count > 0 else { return "" }
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    private func cString(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String {
        cString(pointer) ?? ""
    }

    /// A tag as it was likely written: libyaml expands `!!str` to `tag:yaml.org,2002:str`.
    private func tag(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String {
        let expanded = string(pointer)
        let standardPrefix = "tag:yaml.org,2002:"
        return expanded.hasPrefix(standardPrefix) ? "!!" + expanded.dropFirst(standardPrefix.count) : expanded
    }

    private func location(_ mark: yaml_mark_t) -> SourceLocation {
        location(line: mark.line, column: mark.column)
    }

    private func location(line: Int, column: Int) -> SourceLocation {
        SourceLocation(file: fileName, line: line + 1, column: column + 1)
    }

    // MARK: - Errors

    private func parserError(_ parser: yaml_parser_t) -> Diagnostic {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
        if parser.error == YAML_READER_ERROR {
            // Reader errors carry a byte offset, not a mark.
            var offset = parser.problem_offset
            if problem.contains("trailing"), let lead = bytes[..<min(offset, bytes.count)].lastIndex(where: { $0 >= 0xC0 }) {
                // libyaml points at the bad continuation byte; the character starts at its lead byte.
                offset = lead
            }
            let here = location(ofByteOffset: offset)
            let detail: String
            if problem.contains("UTF-8") {
                detail = "the file is not valid UTF-8 text (\(problem))"
            } else if problem.contains("control characters") {
                detail = "the file is not text: it holds a control character (byte 0x\(String(parser.problem_value, radix: 16)))"
            } else {
                detail = "the file cannot be read as text: \(problem)"
            }
            return Diagnostic(.yamlSyntax, detail, at: here)
        }
        if let length = overlongKey(endingAt: parser.problem_mark) {
            // libyaml takes a longer key for a value, then trips on its ':'.
            return Diagnostic(.yamlSyntax, "YAML syntax error: this mapping key is \(length) characters long, and a key is at most \(Self.maxKeyLength) (libyaml's limit): use a shorter name", at: location(parser.problem_mark))
        }
        if let mistake = IndentationMistake(problem: problem, problemLine: parser.problem_mark.line, text: bytes) {
            return Diagnostic(.yamlSyntax, "YAML syntax error: \(mistake.message) (libyaml: \(problem))", at: location(line: mistake.line - 1, column: mistake.column - 1))
        }
        var message = "YAML syntax error: \(problem)"
        if let context = parser.context.map({ String(cString: $0) }) {
            let contextMark = parser.context_mark
            message += " (\(context) at line \(contextMark.line + 1), column \(contextMark.column + 1))"
        }
        return Diagnostic(.yamlSyntax, message, at: location(parser.problem_mark))
    }

    /// libyaml's limit on the length of a key (a "simple key"), in characters.
    static let maxKeyLength = 1024

    /// The length in characters of the key that ends where libyaml stopped, when it is longer
    /// than libyaml allows: the text on the mark's line before it, less indentation and a list
    /// dash.
    private func overlongKey(endingAt mark: yaml_mark_t) -> Int? {
        var start = 0
        for _ in 0..<mark.line {
            guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            start = newline + 1
        }
        var end = start
        var characters = 0
        while end < bytes.count, characters < mark.column {
            end += 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            characters += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ":") else { return nil }
        var key = bytes[start..<end].drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "-") }
        while let last = key.last, last == UInt8(ascii: " ") { key = key.dropLast() }
        let length = key.reduce(0) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        return length > Self.maxKeyLength ? length : nil
    }

    /// Line and column of a byte offset, counting columns in characters as libyaml's marks do.
    private func location(ofByteOffset offset: Int) -> SourceLocation {
        var line = 0
        var column = 0
        for byte in bytes.prefix(max(0, offset)) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 0
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return location(line: line, column: column)
    }
}
