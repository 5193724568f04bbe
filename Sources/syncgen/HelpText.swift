import SyncGenerator

enum HelpText {
    static let overview = """
        OVERVIEW: syncgen \(SyncgenVersion.current): CloudKit sync models from YAML schemas

        USAGE: syncgen <command> [options]

        COMMANDS:
          validate    Check schema files and report every problem at file:line:column.
          generate    Write the Swift models and their sync bridge for a valid schema.
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

    static let generate = """
        OVERVIEW: Write the Swift models and their sync bridge for a valid schema.

        USAGE: syncgen generate <path>... --output <folder> [--access internal|public]
                                [--relative-to <folder>]

        ARGUMENTS:
          <path>                  Schema files, or folders searched recursively for *.yaml
                                  and *.yml files (hidden files and folders are skipped).

        OPTIONS:
          --output <folder>       Where to write the files: one <name>.syncgen.swift per
                                  schema file, named after its path below its schema folder
                                  (Lists/Items.yaml -> Lists+Items.syncgen.swift), and
                                  SyncSchema.syncgen.swift listing every model. Files are
                                  rewritten only when their contents change; generated files
                                  of earlier runs that are no longer generated are removed.
          --access <level>        internal (default) or public.
          --relative-to <folder>  Name files given directly by their path below this folder.
          -h, --help              Show this help.

        EXIT STATUS:
          0 generated, 1 the schema has errors (nothing is written), 2 usage error or I/O error.

        """

    static func text(for topic: String?) -> String {
        switch topic {
        case "validate": validate
        case "generate": generate
        default: overview
        }
    }
}
