import Foundation
import SyncRuntime
import SyncLocalCloud

// notes-demo: the Notes example.
//
//   notes-demo                         tells the whole story, step by step, and checks every device agrees
//   notes-demo --store DIR --device alice-phone [--account alice] COMMAND ...
//                                      drives one device by hand, across runs (see `notes-demo --help`)
//   notes-demo soak [--kills N]        kills syncing devices with SIGKILL and checks no acknowledged
//                                      write is lost (see `notes-demo soak --help`)
//   notes-demo soak-keys [--kills N]   devices syncing at once make lists of colliding titles and
//                                      label them; checks the merges lose nothing (`soak-keys --help`)
//   notes-demo soak-merge [--kills N]  devices syncing at once change counts and write words into one
//                                      note; checks every change counts once (`soak-merge --help`)
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case nil:
        var story = Story()
        exit(try await story.tell() ? 0 : 1)
    case "soak":
        exit(try await Soak(arguments: Array(arguments.dropFirst())).run())
    case "soak-worker":
        exit(try await SoakWorker(arguments: Array(arguments.dropFirst())).run())
    case "soak-keys":
        exit(try await KeySoak(arguments: Array(arguments.dropFirst())).run())
    case "soak-keys-worker":
        exit(try await KeySoakWorker(arguments: Array(arguments.dropFirst())).run())
    case "soak-merge":
        exit(try await MergeSoak(arguments: Array(arguments.dropFirst())).run())
    case "soak-merge-worker":
        exit(try await MergeSoakWorker(arguments: Array(arguments.dropFirst())).run())
    default:
        exit(try await Manual(arguments: arguments).run())
    }
} catch let error as UsageError {
    FileHandle.standardError.write(Data("notes-demo: \(error.message)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("notes-demo: failed: \(error)\n".utf8))
    exit(1)
}
