import Foundation
import SyncRuntime

// notes-demo: the Notes example.
//
//   notes-demo                         tells the whole story, step by step, and checks every device agrees
//   notes-demo --store DIR --device alice-phone [--account alice] COMMAND ...
//                                      drives one device by hand, across runs (see `notes-demo --help`)
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.isEmpty {
        var story = Story()
        exit(try await story.tell() ? 0 : 1)
    }
    exit(try await Manual(arguments: arguments).run())
} catch let error as UsageError {
    FileHandle.standardError.write(Data("notes-demo: \(error.message)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("notes-demo: failed: \(error)\n".utf8))
    exit(1)
}
