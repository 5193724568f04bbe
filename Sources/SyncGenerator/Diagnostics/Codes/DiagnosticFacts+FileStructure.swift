/// Rule 1: YAML and file structure.
extension DiagnosticFacts {
    static let yamlSyntax = DiagnosticFacts(
        .error,
        summary: "the file is not valid YAML (or not valid UTF-8 text)",
        protects: "A file syncgen cannot read at all: nothing of it can be checked or generated, and a model it declares would seem missing to the others.",
        fact: "syncgen reads YAML with libyaml, which stops at the first syntax error (an unclosed bracket, a tab for indentation, a key longer than 1,024 characters) or at bytes that are not UTF-8 text.")

    static let fileNotMapping = DiagnosticFacts(
        .error,
        summary: "the top level of a file is not a mapping",
        protects: "A file whose top level is a list or a word: it holds no `models` to read.",
        fact: "A schema file is a mapping whose `models` key holds the models.")

    static let wrongValueKind = DiagnosticFacts(
        .error,
        summary: "a value has the wrong kind (mapping, list, text, number, true/false)",
        protects: "A value of the wrong kind silently meaning something else: `shareable: yes` is text in the YAML 1.2 syncgen reads, not true.",
        fact: "Only unquoted `true`/`false` are booleans, only unquoted numbers are numbers; a key that takes a mapping, a list or a name takes nothing else.")

    static let duplicateKey = DiagnosticFacts(
        .error,
        summary: "a key appears twice in one mapping",
        protects: "A key given twice, whose first value YAML would silently drop.",
        fact: "A YAML mapping holds each key once; libyaml keeps both, and syncgen refuses to guess which was meant.")

    static let mergeKeyUnsupported = DiagnosticFacts(
        .error,
        summary: "YAML merge keys (`<<`) are not supported",
        protects: "Merge keys (`<<`), a YAML 1.1 feature whose rules differ between parsers: the same file would mean different models to different tools.",
        fact: "syncgen reads YAML 1.2, which has no merge keys. An alias of a whole value works the same everywhere.")

    static let tagUnsupported = DiagnosticFacts(
        .error,
        summary: "YAML tags (`!!str`, `!custom`) are not supported",
        protects: "Tags (`!!str`, `!custom`) that change what a value means in ways a reader of the file cannot see.",
        fact: "syncgen takes every value as YAML 1.2's core schema reads it; quoting a value makes it text.")

    static let multipleDocuments = DiagnosticFacts(
        .error,
        summary: "a file holds more than one YAML document",
        protects: "A second YAML document (after `---`) in one file, which would be ignored.",
        fact: "A schema file is one document; split models into more files of the folder instead.")

    static let nestingTooDeep = DiagnosticFacts(
        .error,
        summary: "the YAML nests deeper than syncgen reads",
        protects: "A file nested deeper than any schema needs, which would make reading it slow or exhaust memory.",
        fact: "syncgen reads at most 64 levels of mappings and lists; a schema needs five.")

    static let emptyFile = DiagnosticFacts(
        .warning,
        summary: "the file is empty or only comments",
        protects: "A schema file that holds nothing, usually one left empty by mistake.",
        fact: "An empty file, or one of comments only, contributes no models; it is valid, and said so.")

    static let unsupportedVersion = DiagnosticFacts(
        .error,
        summary: "`version` is not 1",
        protects: "A file written for a schema language this syncgen does not speak, read as if it did.",
        fact: "This syncgen reads version 1 of the schema language; `version` may be left out.")

    static let missingRequiredKey = DiagnosticFacts(
        .error,
        summary: "a required key (`models`, `fields`, `type`) is missing",
        protects: "A model without `fields`, a field without `type`, a file without `models`: nothing to generate from.",
        fact: "`models` in a file, `fields` in a model (empty: `fields: {}`) and `type` in a long-form field are required.")

    static let aliasExpansionTooLarge = DiagnosticFacts(
        .error,
        summary: "aliases expand to more nodes than syncgen reads",
        protects: "A file of nested aliases that expands to billions of nodes (the \"billion laughs\" attack) and would exhaust memory.",
        fact: "An alias stands for a copy of its anchored value; syncgen expands at most 5,000,000 nodes.")

    static let unknownAnchor = DiagnosticFacts(
        .error,
        summary: "an alias names an anchor that is not defined before it",
        protects: "An alias to an anchor that does not exist (yet): a typo that would leave a field without its type.",
        fact: "An alias (`*name`) refers to an anchor (`&name`) written before it in the same file.")
}
