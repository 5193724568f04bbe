import SyncGenerator

/// What the user asked for on the command line.
enum Invocation: Equatable {
    case help(topic: String?)
    case version
    case validate(ValidateOptions)
}

struct ValidateOptions: Equatable {
    enum Format: String, CaseIterable {
        case text, json
    }

    var paths: [String] = []
    var format: Format = .text
    var warningsAsErrors = false
}

/// A command line that cannot be run, with the one-line reason shown to the user (exit status 2).
struct UsageError: Error, Equatable {
    var message: String
}

/// Parses arguments by hand: the toolchain's packages are all syncgen may depend on.
enum ArgumentParser {
    static let commands = ["validate", "help"]

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
                throw UsageError(message: "unknown command '\(topic)'\(suggestion(topic, among: commands))")
            }
            return .help(topic: rest.first)
        case "validate":
            if rest.contains(where: { $0 == "-h" || $0 == "--help" }) { return .help(topic: "validate") }
            return .validate(try parseValidate(rest))
        default:
            if first.hasPrefix("-") {
                throw UsageError(message: "unknown option '\(first)'; a command comes first (syncgen validate ...)")
            }
            throw UsageError(message: "unknown command '\(first)'\(suggestion(first, among: commands))")
        }
    }

    private static func parseValidate(_ arguments: [String]) throws(UsageError) -> ValidateOptions {
        var options = ValidateOptions()
        var remaining = arguments[...]
        var onlyPaths = false
        while let argument = remaining.popFirst() {
            if onlyPaths || !argument.hasPrefix("-") || argument == "-" {
                options.paths.append(argument)
                continue
            }
            let (name, inlineValue) = split(argument)
            switch name {
            case "--":
                onlyPaths = true
            case "--format":
                guard let value = inlineValue ?? remaining.popFirst() else {
                    throw UsageError(message: "'--format' needs a value: text or json")
                }
                guard let format = ValidateOptions.Format(rawValue: value) else {
                    throw UsageError(message: "unknown format '\(value)'; use text or json")
                }
                options.format = format
            case "--warnings-as-errors":
                guard inlineValue == nil else { throw UsageError(message: "'--warnings-as-errors' takes no value") }
                options.warningsAsErrors = true
            default:
                let known = ["--format", "--warnings-as-errors", "--help"]
                throw UsageError(message: "unknown option '\(name)' for 'validate'\(suggestion(name, among: known))")
            }
        }
        guard !options.paths.isEmpty else {
            throw UsageError(message: "'validate' needs at least one schema file or folder")
        }
        return options
    }

    /// `--name=value` into its two halves.
    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private static func suggestion(_ word: String, among candidates: [String]) -> String {
        Suggestion.didYouMean(word, among: candidates)
    }
}
