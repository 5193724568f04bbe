import SyncGenerator

/// Definition, references, rename and the outline: over the names of the document's schema folder.
extension Workspace {
    typealias Place = (uri: String, position: Position)
    typealias RequestError = LanguageServer.RequestError

    func lines(of path: String) -> TextLines { TextLines(text(of: path) ?? "") }

    /// The names of the document's folder, as its files are now.
    func index(for path: String) -> SchemaIndex {
        let folder = folder(of: path)
        if let made = cache.indexes[folder] { return made }
        let made = SchemaIndex(sources(in: folder), saved: fileSystem.read)
        cache.indexes[folder] = made
        return made
    }

    /// The name under the cursor, with the folder's index; nil when the cursor is on no name.
    func occurrence(at place: Place) throws(RequestError) -> (SchemaIndex.Occurrence, SchemaIndex)? {
        guard let path = try schemaPath(place.uri) else { return nil }
        let lines = lines(of: path)
        let index = index(for: path)
        let column = lines.column(of: place.position)
        guard let found = index.occurrence(inFile: path, line: place.position.line + 1, column: column, lines: lines) else { return nil }
        return (found, index)
    }

    static func documentPath(_ uri: String) throws(RequestError) -> String {
        guard let path = path(of: uri) else { throw RequestError(code: LanguageServer.ErrorCode.invalidParams, message: "'\(uri)' is not a file URI") }
        return path
    }

    /// The document's path when it is a schema file; nil for other YAML, which gets no answers.
    func schemaPath(_ uri: String) throws(RequestError) -> String? {
        let path = try Self.documentPath(uri)
        return isSchema(path) ? path : nil
    }

    func location(_ occurrence: SchemaIndex.Occurrence) -> JSON {
        let path = occurrence.location.file
        return ["uri": .string(uri(of: path)), "range": SchemaIndex.range(of: occurrence, in: lines(of: path)).json]
    }

    func definition(_ place: Place) throws(RequestError) -> JSON {
        guard let (found, index) = try occurrence(at: place) else { return .null }
        let declarations = index.related(to: found).filter { other in
            switch (found.role, other.role) {
            case (.modelDeclaration, .modelDeclaration), (.modelUse, .modelDeclaration): true
            case (.fieldDeclaration(let model), .fieldDeclaration(let owner)), (.fieldUse(let model), .fieldDeclaration(let owner)): model == owner
            default: false
            }
        }
        return .array(declarations.map(location))
    }

    func references(_ place: Place, includeDeclaration: Bool) throws(RequestError) -> JSON {
        guard let (found, index) = try occurrence(at: place) else { return .null }
        let all = index.related(to: found).filter { includeDeclaration || ($0.role != .modelDeclaration && !Self.isFieldDeclaration($0)) }
        return .array(all.map(location))
    }

    private static func isFieldDeclaration(_ occurrence: SchemaIndex.Occurrence) -> Bool {
        if case .fieldDeclaration = occurrence.role { return true }
        return false
    }

    /// Renames a model or a field everywhere the folder names it. A model without `recordType:`
    /// gets its old name as one, so its records keep their CloudKit record type (a deployed type
    /// cannot be renamed; records of a new one would start empty); a field without `recordKey:`
    /// gets its old name as one in each declaration renamed (a draft's and its projection's), so
    /// its values stay under their deployed key, in CloudKit and on every device.
    mutating func rename(_ place: Place, to newName: String) throws(RequestError) -> JSON {
        guard let (found, index) = try occurrence(at: place) else {
            throw RequestError(code: LanguageServer.ErrorCode.invalidParams, message: "no model or field name here")
        }
        guard Self.isPlainName(newName) else {
            throw RequestError(code: LanguageServer.ErrorCode.invalidParams, message: "'\(newName)' is not a name: letters, digits and '_', starting with a letter")
        }
        var edits: [String: [JSON]] = [:]
        for occurrence in index.related(to: found) {
            let path = occurrence.location.file
            edits[uri(of: path), default: []].append(["range": SchemaIndex.range(of: occurrence, in: lines(of: path)).json, "newText": .string(newName)])
        }
        if found.isModel, let model = index.model(named: found.name), model.recordType == nil {
            guard let edit = keepRecordType(of: model) else {
                throw RequestError(
                    code: LanguageServer.ErrorCode.invalidParams,
                    message: "'\(found.name)' is written on one line, where its record type cannot be kept: add 'recordType: \(found.name)' to it first, then rename")
            }
            edits[uri(of: model.name.location.file), default: []].append(edit)
            appendMessage("'\(found.name)' keeps its record type: 'recordType: \(found.name)' was added, so records already in CloudKit stay readable. Remove it if the model was never deployed.")
        } else if !found.isModel {
            var kept = false
            for occurrence in index.related(to: found) {
                guard case .fieldDeclaration(let owner) = occurrence.role,
                    let field = index.model(named: owner)?.fields.first(where: { $0.name.location == occurrence.location }),
                    field.recordKey == nil
                else { continue }
                guard let edit = keepRecordKey(of: field) else {
                    throw RequestError(
                        code: LanguageServer.ErrorCode.invalidParams,
                        message: "field '\(found.name)' of '\(owner)' is written where its record key cannot be kept: add 'recordKey: \(found.name)' to it first, then rename")
                }
                edits[uri(of: field.name.location.file), default: []].append(edit)
                kept = true
            }
            if kept {
                appendMessage("'\(found.name)' keeps its record key: 'recordKey: \(found.name)' was added, so values already in CloudKit and on devices stay readable. Remove it if the field was never deployed.")
            }
        }
        return ["changes": .object(edits.mapValues(JSON.array))]
    }

    /// The line `recordType: <name>` inserted as the model's first key, indented as its next key
    /// is; nil for a model written on one line (`Note: { fields: ... }`).
    private func keepRecordType(of model: ModelDeclaration) -> JSON? {
        let path = model.name.location.file
        let lines = lines(of: path)
        let nameLine = model.name.location.line  // 1-based: lines after it are 0-based from here
        let modelIndent = model.name.location.column - 1
        guard lines.line(nameLine - 1).dropFirst(modelIndent).contains(where: { $0 == "{" }) == false else { return nil }
        // The model's first key: the next line that is neither blank nor a comment.
        let next = (nameLine..<lines.count).map { lines.line($0) }.first { line in
            let content = line.drop { $0 == " " }
            return !content.isEmpty && content.first != "#"
        }
        let nextIndent = next.map { $0.prefix { $0 == " " }.count } ?? 0
        let indent = nextIndent > modelIndent ? nextIndent : modelIndent + 2
        let text = String(repeating: " ", count: indent) + "recordType: \(model.name.value)\n"
        let start = Position(line: nameLine, character: 0)
        return ["range": Range(start: start, end: start).json, "newText": .string(text)]
    }

    /// The field's old name kept as its `recordKey:`, in whichever form the field is written:
    /// `title: string` becomes `title: { type: string, recordKey: title }`, a flow mapping gains
    /// the key first, a block mapping a line before its first key. Nil when the field's value is
    /// not on its line or below it as expected (a type written on the next line, say).
    private func keepRecordKey(of field: FieldDeclaration) -> JSON? {
        let lines = lines(of: field.name.location.file)
        let lineIndex = field.name.location.line - 1
        let line = Array(lines.line(lineIndex))
        // The value starts after the name's colon (a quoted name ends at its closing quote).
        let nameEnd = lines.wordRange(line: field.name.location.line, column: field.name.location.column).end.character
        var scalarIndex = 0, units = 0
        while scalarIndex < line.count && units < nameEnd {
            units += line[scalarIndex].utf16.count
            scalarIndex += 1
        }
        guard let colon = line[scalarIndex...].firstIndex(of: ":") else { return nil }
        let valueStart = line[(colon + 1)...].firstIndex { $0 != " " } ?? line.count
        let key = "recordKey: \(field.name.value)"
        func position(_ index: Int) -> Position {
            Position(line: lineIndex, character: line.prefix(index).reduce(0) { $0 + $1.utf16.count })
        }
        if valueStart == line.count || line[valueStart] == "#" {
            // A block mapping: the key goes in before the field's first key, at its indent.
            guard let next = ((lineIndex + 1)..<lines.count).first(where: { index in
                let content = lines.line(index).drop { $0 == " " }
                return !content.isEmpty && content.first != "#"
            }) else { return nil }
            let indent = lines.line(next).prefix { $0 == " " }.count
            guard indent > field.name.location.column - 1 else { return nil }
            let start = Position(line: next, character: 0)
            return ["range": Range(start: start, end: start).json, "newText": .string(String(repeating: " ", count: indent) + key + "\n")]
        }
        if line[valueStart] == "{" {
            let first = line[(valueStart + 1)...].firstIndex { $0 != " " } ?? line.count
            let at = position(first)
            return ["range": Range(start: at, end: at).json, "newText": .string(key + ", ")]
        }
        // The shorthand: the type word, up to a comment, the end of a flow mapping or its next entry.
        var valueEnd = valueStart
        while valueEnd < line.count, ![",", "}", "#"].contains(line[valueEnd]) { valueEnd += 1 }
        while valueEnd > valueStart, line[valueEnd - 1] == " " { valueEnd -= 1 }
        let type = String(String.UnicodeScalarView(line[valueStart..<valueEnd]))
        return ["range": Range(start: position(valueStart), end: position(valueEnd)).json, "newText": .string("{ type: \(type), \(key) }")]
    }

    static func isPlainName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    }

    /// Models and their fields, as the document declares them.
    func symbols(_ uri: String) throws(RequestError) -> JSON {
        guard let path = try schemaPath(uri) else { return [] }
        let lines = lines(of: path)
        let models = SchemaIndex([SchemaSource(path: path, text: text(of: path) ?? "")]).models
        return .array(models.enumerated().map { offset, model in
            let nameRange = lines.wordRange(line: model.name.location.line, column: model.name.location.column)
            let lastLine = offset + 1 < models.count ? models[offset + 1].name.location.line - 2 : lines.count - 1
            let end = Position(line: max(nameRange.start.line, lastLine), character: lines.line(max(nameRange.start.line, lastLine)).reduce(0) { $0 + $1.utf16.count })
            let fields: [JSON] = model.fields.map { field in
                let range = lines.wordRange(line: field.name.location.line, column: field.name.location.column)
                return [
                    "name": .string(field.name.value), "kind": 8, "detail": .string(field.type?.value ?? ""),
                    "range": range.json, "selectionRange": range.json,
                ]
            }
            return [
                "name": .string(model.name.value), "kind": 23,
                "detail": .string(Self.scopesText(model)),
                "range": Range(start: nameRange.start, end: end).json, "selectionRange": nameRange.json,
                "children": .array(fields),
            ]
        })
    }

}
