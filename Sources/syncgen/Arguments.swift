import SyncGenerator

/// What the user asked for on the command line.
enum Invocation: Equatable {
    case help(topic: String?)
    case version
    case validate(ValidateOptions)
    case generate(GenerateOptions)
}

enum DiagnosticFormat: String, CaseIterable {
    case text, json
}

struct ValidateOptions: Equatable {
    var paths: [String] = []
    var format: DiagnosticFormat = .text
    var warningsAsErrors = false
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
    static let commands = ["validate", "generate", "help"]

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
        case "validate", "generate":
            if rest.contains(where: { $0 == "-h" || $0 == "--help" }) { return .help(topic: first) }
            return first == "validate" ? .validate(try parseValidate(rest)) : .generate(try parseGenerate(rest))
        default:
            if first.hasPrefix("-") {
                throw UsageError(message: "unknown option '\(first)'; a command comes first (syncgen validate ...)")
            }
            throw UsageError(message: "unknown command '\(first)'\(Suggestion.didYouMean(first, among: commands))")
        }
    }

    private static func parseValidate(_ arguments: [String]) throws(UsageError) -> ValidateOptions {
        let parsed = try CommandArguments(arguments, command: "validate", valued: ["--format": "text or json"], flags: ["--warnings-as-errors"])
        var options = ValidateOptions(paths: parsed.paths, warningsAsErrors: parsed.flags.contains("--warnings-as-errors"))
        if let format = parsed.values["--format"] {
            guard let value = DiagnosticFormat(rawValue: format) else {
                throw UsageError(message: "unknown format '\(format)'; use text or json")
            }
            options.format = value
        }
        return options
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
    init(_ arguments: [String], command: String, valued: [String: String], flags known: [String]) throws(UsageError) {
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
        guard !paths.isEmpty else {
            throw UsageError(message: "'\(command)' needs at least one schema file or folder")
        }
    }

    /// `--name=value` into its two halves.
    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
