import Foundation
import SyncGenerator

@main
enum Syncgen {
    static func main() {
        var output = StandardStreams()
        exit(run(Array(CommandLine.arguments.dropFirst()), output: &output))
    }

    /// Runs one command line and returns the exit status: 0 success, 1 the schema has errors,
    /// 2 usage error or unreadable input.
    static func run(_ arguments: [String], output: inout some TerminalOutput) -> Int32 {
        do {
            switch try ArgumentParser.parse(arguments) {
            case .help(let topic):
                output.write(HelpText.text(for: topic), to: .standardOutput)
                return 0
            case .version:
                output.write("syncgen \(SyncgenVersion.current)\n", to: .standardOutput)
                return 0
            case .validate(let options):
                return try ValidateCommand.run(options, output: &output)
            case .generate(let options):
                return try GenerateCommand.run(options, output: &output)
            case .diff(let options):
                return try DiffCommand.run(options, output: &output)
            case .export(let options):
                return try ExportCommand.run(options, output: &output)
            case .languageServer(let baseline):
                return LanguageServerCommand.run(baseline: baseline)
            case .explain(let code):
                output.write(code.map(ExplanationRenderer.text) ?? ExplanationRenderer.list(), to: .standardOutput)
                return 0
            }
        } catch {
            output.write("syncgen: error: \(error.message)\n", to: .standardError)
            return 2
        }
    }
}
