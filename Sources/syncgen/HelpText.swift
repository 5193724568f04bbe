import SyncGenerator

enum HelpText {
    static let overview = """
        OVERVIEW: syncgen \(SyncgenVersion.current): CloudKit sync models from YAML schemas

        USAGE: syncgen <command> [options]

        COMMANDS:
          validate    Check schema files and report every problem at file:line:column.
          help        Show help for a command.

        OPTIONS:
          -h, --help  Show this help.
          --version   Show the version.

        See 'syncgen help <command>' for a command's options.

        """

    static let validate = """
        OVERVIEW: Check schema files and report every problem at file:line:column.

        USAGE: syncgen validate [--format text|json] [--warnings-as-errors] <path>...

        ARGUMENTS:
          <path>                  Schema files, or folders searched recursively for *.yaml
                                  and *.yml files (hidden files and folders are skipped).

        OPTIONS:
          --format <format>       text (default): diagnostics on standard error, as compilers
                                  print them. json: a JSON array on standard output.
          --warnings-as-errors    Treat warnings as errors.
          -h, --help              Show this help.

        EXIT STATUS:
          0 valid (warnings allowed), 1 the schema has errors, 2 usage error or unreadable input.

        """

    static func text(for topic: String?) -> String {
        topic == "validate" ? validate : overview
    }
}
