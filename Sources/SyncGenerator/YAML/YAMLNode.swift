/// A YAML node as syncgen reads it: a scalar, a sequence or a mapping, each with the place it was
/// written. Aliases are already resolved into copies of the anchored node (which keeps the anchor's
/// location).
package struct YAMLNode: Hashable, Sendable {
    package enum Content: Hashable, Sendable {
        case scalar(YAMLScalar)
        case sequence([YAMLNode])
        case mapping([YAMLMappingEntry])
    }

    package var content: Content
    package var location: SourceLocation

    package init(_ content: Content, at location: SourceLocation) {
        self.content = content
        self.location = location
    }

    package var scalar: YAMLScalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }

    package var sequence: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    package var mapping: [YAMLMappingEntry]? {
        if case .mapping(let entries) = content { return entries }
        return nil
    }

    /// How the node is described in messages: "a mapping", "a list", "the text 'abc'", "the number 3".
    package var kindDescription: String {
        switch content {
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .scalar(let scalar): scalar.valueDescription
        }
    }
}

/// One `key: value` pair of a mapping. Keys are scalars; a mapping keeps every pair it was given,
/// duplicates included, so the reader can report them with both locations.
package struct YAMLMappingEntry: Hashable, Sendable {
    package var key: YAMLScalar
    package var keyLocation: SourceLocation
    package var value: YAMLNode

    package init(key: YAMLScalar, keyLocation: SourceLocation, value: YAMLNode) {
        self.key = key
        self.keyLocation = keyLocation
        self.value = value
    }
}

/// A scalar's text and the style it was written in, so that `"1"` (text) and `1` (a number) are
/// told apart.
package struct YAMLScalar: Hashable, Sendable {
    package enum Style: Hashable, Sendable {
        case plain, singleQuoted, doubleQuoted, literal, folded
    }

    package var text: String
    package var style: Style

    package init(_ text: String, style: Style = .plain) {
        self.text = text
        self.style = style
    }

    /// The scalar's value under the YAML 1.2 core schema: only plain scalars can be null, booleans
    /// or numbers; anything quoted or in block style is text.
    package var value: YAMLScalarValue { YAMLScalarValue(resolving: self) }

    var valueDescription: String {
        switch value {
        case .null: "an empty value"
        case .bool(let flag): "the boolean \(flag)"
        case .int(let number): "the number \(number)"
        case .double: "the number \(text)"
        case .integerOutOfRange: "the number \(text)"
        case .string(let string): "the text '\(string.truncatedForMessage)'"
        }
    }
}

extension String {
    /// Long values are cut in messages so one diagnostic stays one readable line.
    var truncatedForMessage: String {
        let limit = 60
        let firstLine = prefix { $0 != "\n" && $0 != "\r" }
        if firstLine.count <= limit && firstLine.count == count { return self }
        return String(firstLine.prefix(limit)) + "…"
    }
}
