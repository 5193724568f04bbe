import SyncGenerator

enum HelpText {
    static let overview = """
        OVERVIEW: syncgen \(SyncgenVersion.current): CloudKit sync models from YAML schemas

        USAGE: syncgen <command> [options]

        COMMANDS:
          validate    Check schema files and report every problem at file:line:column.
          generate    Write the Swift models and their sync bridge for a valid schema.
          diff        Compare a schema with the deployed one: breaking and safe changes.
          export      Print the schema for CloudKit (ckdb), as a diagram (mermaid, dot), as
                      a reference for people (reference), or the language for editors
                      (json-schema).
          explain     Explain a diagnostic code, with examples; or list them all.
          lsp         Serve schema files to an editor (Language Server Protocol, stdio).
          help        Show help for a command.

        OPTIONS:
          -h, --help  Show this help.
          --version   Show the version.

        See 'syncgen help <command>' for a command's options.

        """

    static let validate = """
        OVERVIEW: Check schema files and report every problem at file:line:column.

        USAGE: syncgen validate [--format text|json] [--warnings-as-errors]
                                [--baseline <path> | --baseline-git <ref>] <path>...

        ARGUMENTS:
          <path>                  Schema files, or folders searched recursively for *.yaml
                                  and *.yml files (hidden files and folders are skipped).

        OPTIONS:
          --format <format>       text (default): diagnostics on standard error, as compilers
                                  print them. json: a JSON array on standard output.
          --warnings-as-errors    Treat warnings as errors.
          --baseline <path>       Also report, as errors, every change that would break this
                                  deployed schema (a file or folder); see 'syncgen help diff'.
          --baseline-git <ref>    The same, with the baseline read from git: the same paths at
                                  a commit, branch or tag (e.g. origin/main).
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

    static let diff = """
        OVERVIEW: Compare a schema with the deployed one (the baseline). CloudKit's production
        schema only grows: a record type or field that disappears, changes type or reference
        target, moves between the private and public databases, or turns encrypted or
        unencrypted breaks it. Those are errors; additions are listed as safe changes.

        USAGE: syncgen diff [--format text|json] <old> <new>
               syncgen diff [--format text|json] --baseline-git <ref> <new>...

        ARGUMENTS:
          <old>, <new>            Schema files or folders: the baseline and the new schema.

        OPTIONS:
          --baseline-git <ref>    Read the baseline from git: the <new> paths as they are at a
                                  commit, branch or tag. A ref with no schema files there is
                                  an empty baseline (every model is new).
          --format <format>       text (default): breaking changes on standard error as
                                  compilers print them, safe changes on standard output.
                                  json: {"diagnostics": [...], "safeChanges": [...]} on
                                  standard output.
          -h, --help              Show this help.

        EXIT STATUS:
          0 nothing breaks, 1 breaking changes (or either schema has errors), 2 usage error.

        """

    static let export = """
        OVERVIEW: Print the schema in another language on standard output.

        USAGE: syncgen export ckdb <path>...
               syncgen export mermaid [--format mermaid|dot] <path>...
               syncgen export reference <path>...
               syncgen export json-schema

        FORMATS:
          ckdb                    The schema in CloudKit's schema language, for
                                  'xcrun cktool import-schema' (the schema must be valid).
          mermaid                 The schema as a diagram: databases as groups, models with
                                  their fields, share hierarchies, references, publications.
                                  Mermaid (GitHub renders it in Markdown); with
                                  '--format dot', the same graph for Graphviz ('export dot'
                                  for short).
          reference               The schema as a Markdown page for people: each model and
                                  field with its 'description', Swift and CloudKit types,
                                  where its records live, enum cases (the schema must be
                                  valid).
          json-schema             A JSON Schema of the schema language, for editors with a
                                  YAML language server (reads no schema files).

        OPTIONS:
          -h, --help              Show this help.

        EXIT STATUS:
          0 printed, 1 the schema has errors (nothing printed), 2 usage error.

        """

    static let explain = """
        OVERVIEW: Explain a diagnostic code: what its rule protects against, the fact behind it,
        and a schema it refuses beside the same schema fixed.

        USAGE: syncgen explain <code>
               syncgen explain

        ARGUMENTS:
          <code>                  A code a diagnostic ends with (SG0601, any case). Without one,
                                  every code is listed with its summary.

        OPTIONS:
          -h, --help              Show this help.

        EXIT STATUS:
          0 explained, 2 an unknown code.

        """

    static let lsp = """
        OVERVIEW: Serve schema files to an editor: the Language Server Protocol over standard
        input and output. Diagnostics as you type (every file of a schema folder checked
        together), completion, hover, go to definition, references, rename, an outline and
        quick fixes. docs/Editors.md shows how each editor starts it.

        USAGE: syncgen lsp [--baseline <path> | --baseline-git <ref>]

        OPTIONS:
          --baseline <path>       Also report, as errors, every change the deployed schema (this
                                  file or folder) cannot take.
          --baseline-git <ref>    The same, with each schema folder as it is at this git
                                  commit, branch or tag.
          -h, --help              Show this help.

        The editor may name the baseline instead, and the schema folders, in its
        initialization options: {"baseline": {"git": "<ref>"}, "schemaFolders": ["<path>"]}.

        EXIT STATUS:
          0 after the editor's shutdown and exit, 1 when the editor left without a shutdown.

        """

    static func text(for topic: String?) -> String {
        switch topic {
        case "lsp": lsp
        case "validate": validate
        case "generate": generate
        case "diff": diff
        case "export": export
        case "explain": explain
        default: overview
        }
    }
}
