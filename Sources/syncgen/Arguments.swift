import SyncGenerator

/// What the user asked for on the command line.
enum Invocation: Equatable {
    case help(topic: String?)
    case version
    case validate(ValidateOptions)
    case generate(GenerateOptions)
    case diff(DiffOptions)
    case export(ExportOptions)
    /// `syncgen explain [CODE]`: one code's explanation, or the list of every code.
    case explain(DiagnosticCode?)
    /// `syncgen lsp`: the language server, on stdio.
    case languageServer(baseline: Baseline?)
}

enum DiagnosticFormat: String, CaseIterable {
    case text, json
}

struct ValidateOptions: Equatable {
    var paths: [String] = []
    var format: DiagnosticFormat = .text
    var warningsAsErrors = false
    /// When set, changes that would break the deployed schema are errors too.
    var baseline: Baseline?
}

/// The schema a new one is compared with (``SchemaBaseline``, which the language server takes too).
typealias Baseline = SchemaBaseline

struct DiffOptions: Equatable {
    var baseline: Baseline
    var paths: [String]
    var format: DiagnosticFormat = .text
}

struct ExportOptions: Equatable {
    enum Format: String, CaseIterable {
        case ckdb
        case mermaid
        /// The Mermaid diagram's graph in Graphviz's language (`export mermaid --format dot`).
        case dot
        /// The app's schema as a Markdown reference for people.
        case reference
        case jsonSchema = "json-schema"
    }

    var format: Format
    var paths: [String] = []
}

struct GenerateOptions: Equatable {
    var paths: [String] = []
    var output = ""
    var accessLevel: CodeGenerator.AccessLevel = .internal
    /// The folder schema files named directly are relative to (their generated names keep the
    /// path below it); by default a file named directly is relative to its own folder.
    var relativeTo: String?
}

/// A command line that cannot be run, with the one-line reason shown to the user (exit status 2).
struct UsageError: Error, Equatable {
    var message: String
}

/// Parses arguments by hand: the toolchain's packages are all syncgen may depend on.
enum ArgumentParser {
    static let commands = ["validate", "generate", "diff", "export", "explain", "lsp", "help"]

    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        guard let first = arguments.first else { return .help(topic: nil) }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "-h", "--help":
            return .help(topic: nil)
        case "--version":
            return .version
        case "help":
            guard rest.count <= 1 else { throw UsageError(message: "'help' takes at most one command name") }
            if let topic = rest.first, !commands.contains(topic) {
                throw UsageError(message: "unknown command '\(topic)'\(Suggestion.didYouMean(topic, among: commands))")
            }
            return .help(topic: rest.first)
        case "explain":
            if rest.contains(where: { $0 == "-h" || $0 == "--help" }) { return .help(topic: first) }
            return .explain(try parseExplain(rest))
        case "lsp":
            if rest.contains(where: { $0 == "-h" || $0 == "--help" }) { return .help(topic: first) }
            return .languageServer(baseline: try parseLanguageServer(rest))
        case "validate", "generate", "diff", "export":
            if rest.contains(where: { $0 == "-h" || $0 == "--help" }) { return .help(topic: first) }
            switch first {
            case "validate": return .validate(try parseValidate(rest))
            case "generate": return .generate(try parseGenerate(rest))
            case "diff": return .diff(try parseDiff(rest))
            default: return .export(try parseExport(rest))
            }
        default:
            if first.hasPrefix("-") {
                throw UsageError(message: "unknown option '\(first)'; a command comes first (syncgen validate ...)")
            }
            throw UsageError(message: "unknown command '\(first)'\(Suggestion.didYouMean(first, among: commands))")
        }
    }

    private static func parseLanguageServer(_ arguments: [String]) throws(UsageError) -> Baseline? {
        let parsed = try CommandArguments(
            arguments, command: "lsp",
            valued: ["--baseline": "a schema file or folder", "--baseline-git": "a git commit, branch or tag"], flags: [],
            pathsAllowed: false)
        return try baseline(parsed)
    }

    private static func parseValidate(_ arguments: [String]) throws(UsageError) -> ValidateOptions {
        let parsed = try CommandArguments(
            arguments, command: "validate",
            valued: ["--format": "text or json", "--baseline": "a schema file or folder", "--baseline-git": "a git commit, branch or tag"],
            flags: ["--warnings-as-errors"])
        var options = ValidateOptions(paths: parsed.paths, warningsAsErrors: parsed.flags.contains("--warnings-as-errors"))
        options.format = try format(parsed)
        options.baseline = try baseline(parsed)
        return options
    }

    /// `syncgen diff OLD NEW`, or `syncgen diff --baseline-git REF NEW...`.
    private static func parseDiff(_ arguments: [String]) throws(UsageError) -> DiffOptions {
        let parsed = try CommandArguments(
            arguments, command: "diff",
            valued: ["--format": "text or json", "--baseline-git": "a git commit, branch or tag"], flags: [])
        if let ref = parsed.values["--baseline-git"] {
            return DiffOptions(baseline: .git(ref: ref), paths: parsed.paths, format: try format(parsed))
        }
        guard parsed.paths.count == 2 else {
            throw UsageError(message: "'diff' compares two schemas: syncgen diff OLD NEW (each a file or folder), or syncgen diff --baseline-git REF NEW")
        }
        return DiffOptions(baseline: .files([parsed.paths[0]]), paths: [parsed.paths[1]], format: try format(parsed))
    }

    /// `syncgen export ckdb PATH...`, `syncgen export mermaid [--format dot] PATH...` (or
    /// `export dot`), `syncgen export reference PATH...`, or `syncgen export json-schema`.
    private static func parseExport(_ arguments: [String]) throws(UsageError) -> ExportOptions {
        let formats = ExportOptions.Format.allCases.map(\.rawValue)
        guard let word = arguments.first, !word.hasPrefix("-") else {
            throw UsageError(message: "'export' needs a format: \(formats.joined(separator: " or "))")
        }
        guard let format = ExportOptions.Format(rawValue: word) else {
            let hint = Suggestion.didYouMean(word, among: formats)
            throw UsageError(message: "unknown export format '\(word)'" + (hint.isEmpty ? "; use \(formats.joined(separator: " or "))" : hint))
        }
        switch format {
        case .ckdb, .dot, .reference:
            let parsed = try CommandArguments(Array(arguments.dropFirst()), command: "export \(word)", valued: [:], flags: [])
            return ExportOptions(format: format, paths: parsed.paths)
        case .mermaid:
            let parsed = try CommandArguments(Array(arguments.dropFirst()), command: "export mermaid", valued: ["--format": "mermaid or dot"], flags: [])
            switch parsed.values["--format"] {
            case nil, "mermaid": return ExportOptions(format: .mermaid, paths: parsed.paths)
            case "dot": return ExportOptions(format: .dot, paths: parsed.paths)
            case let other?: throw UsageError(message: "unknown diagram format '\(other)'; use mermaid or dot")
            }
        case .jsonSchema:
            // Parsed only to refuse stray options and paths.
            _ = try CommandArguments(Array(arguments.dropFirst()), command: "export json-schema", valued: [:], flags: [], pathsAllowed: false)
            return ExportOptions(format: format)
        }
    }

    /// `syncgen explain` or `syncgen explain SG0601` (any case).
    private static func parseExplain(_ arguments: [String]) throws(UsageError) -> DiagnosticCode? {
        guard let word = arguments.first else { return nil }
        guard arguments.count == 1, !word.hasPrefix("-") else {
            throw UsageError(message: "'explain' takes one diagnostic code (syncgen explain SG0601), or none to list them")
        }
        guard let code = DiagnosticCode(rawValue: word.uppercased()) else {
            let codes = DiagnosticCode.allCases.map(\.rawValue)
            let hint = Suggestion.didYouMean(word.uppercased(), among: codes)
            throw UsageError(message: "unknown diagnostic code '\(word)'" + (hint.isEmpty ? "; 'syncgen explain' lists them" : hint))
        }
        return code
    }

    /// `--baseline PATH` or `--baseline-git REF`, at most one.
    private static func baseline(_ parsed: CommandArguments) throws(UsageError) -> Baseline? {
        switch (parsed.values["--baseline"], parsed.values["--baseline-git"]) {
        case (let path?, nil): .files([path])
        case (nil, let ref?): .git(ref: ref)
        case (nil, nil): nil
        case (_?, _?): throw UsageError(message: "'--baseline' and '--baseline-git' exclude each other; give one")
        }
    }

    private static func format(_ parsed: CommandArguments) throws(UsageError) -> DiagnosticFormat {
        guard let format = parsed.values["--format"] else { return .text }
        guard let value = DiagnosticFormat(rawValue: format) else {
            throw UsageError(message: "unknown format '\(format)'; use text or json")
        }
        return value
    }

    private static func parseGenerate(_ arguments: [String]) throws(UsageError) -> GenerateOptions {
        let parsed = try CommandArguments(
            arguments, command: "generate",
            valued: ["--output": "a folder", "--access": "internal or public", "--relative-to": "a folder"], flags: [])
        guard let output = parsed.values["--output"] else {
            throw UsageError(message: "'generate' needs '--output <folder>'")
        }
        var options = GenerateOptions(paths: parsed.paths, output: output, relativeTo: parsed.values["--relative-to"])
        if let access = parsed.values["--access"] {
            guard let level = CodeGenerator.AccessLevel(rawValue: access) else {
                throw UsageError(message: "unknown access level '\(access)'; use internal or public")
            }
            options.accessLevel = level
        }
        return options
    }
}

/// One command's arguments split into paths, options with a value (`--name value` or
/// `--name=value`) and flags; anything after `--` is a path.
private struct CommandArguments {
    var paths: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []

    /// `valued`: each option that takes a value, with what the value is ("text or json").
    /// `pathsAllowed`: false for a command that reads no schema.
    init(_ arguments: [String], command: String, valued: [String: String], flags known: [String], pathsAllowed: Bool = true) throws(UsageError) {
        var remaining = arguments[...]
        var onlyPaths = false
        while let argument = remaining.popFirst() {
            if onlyPaths || !argument.hasPrefix("-") || argument == "-" {
                paths.append(argument)
                continue
            }
            if argument == "--" {
                onlyPaths = true
                continue
            }
            let (name, inlineValue) = Self.split(argument)
            if let expected = valued[name] {
                guard let value = inlineValue ?? remaining.popFirst() else {
                    throw UsageError(message: "'\(name)' needs a value: \(expected)")
                }
                values[name] = value
            } else if known.contains(name) {
                guard inlineValue == nil else { throw UsageError(message: "'\(name)' takes no value") }
                flags.insert(name)
            } else {
                let all = valued.keys.sorted() + known + ["--help"]
                throw UsageError(message: "unknown option '\(name)' for '\(command)'\(Suggestion.didYouMean(name, among: all))")
            }
        }
        if !pathsAllowed, let path = paths.first {
            throw UsageError(message: "'\(command)' reads no schema files; remove '\(path)'")
        }
        guard !paths.isEmpty || !pathsAllowed else {
            throw UsageError(message: "'\(command)' needs at least one schema file or folder")
        }
    }

    /// `--name=value` into its two halves.
    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
