import Foundation
import SyncRuntime
import SyncLocalCloud

struct UsageError: Error {
    var message: String
}

/// Drives one device by hand, across runs: the cloud is `DIR/cloud.sqlite`, each device's store
/// `DIR/devices/NAME.sqlite`.
struct Manual {
    static let help = """
        USAGE: notes-demo --store DIR --device NAME [--account ACCOUNT] COMMAND

        The account defaults to the part of the device name before the first "-" (alice-phone: alice).

        COMMANDS:
          add TEXT                    add a note
          edit ID TEXT                change a note's title
          delete ID                   delete a note
          list                        the notes, lists and items on this device
          sync                        one sync pass with the cloud
          share-list TITLE WITH       create a list and share it with account WITH (read-write);
                                      prints the invitation to pass to `accept`
          add-item LIST TEXT          add an item to a list (yours or shared with you)
          accept INVITATION           accept a shared list
          publish ID                  publish a note to the public catalog
          catalog                     the published notes this device sees

        The engine's log goes to standard error from `notice` on (retries, merges, changes set
        aside); SYNCGEN_LOG=debug|info|notice|error sets the level (the story logs only with it).
        """

    let options: [String: String]
    let command: [String]

    init(arguments: [String]) throws {
        var options: [String: String] = [:]
        var rest = arguments[...]
        while let first = rest.first, first.hasPrefix("--") {
            rest = rest.dropFirst()
            if first == "--help" { throw UsageError(message: "\n" + Self.help) }
            guard ["--store", "--device", "--account"].contains(first), let value = rest.popFirst() else {
                throw UsageError(message: "unknown option \(first) (see notes-demo --help)")
            }
            options[String(first.dropFirst(2))] = value
        }
        guard options["store"] != nil, options["device"] != nil, !rest.isEmpty else {
            throw UsageError(message: "needs --store DIR --device NAME and a command (see notes-demo --help)")
        }
        self.options = options
        self.command = Array(rest)
    }

    func run() async throws -> Int32 {
        let folder = URL(fileURLWithPath: options["store"]!)
        let name = options["device"]!
        let account = options["account"] ?? String(name.split(separator: "-").first ?? Substring(name))
        let cloud = try LocalCloud.file(at: folder.appendingPathComponent("cloud.sqlite"),
            configuration: LocalCloud.Configuration(downloadsFolder: folder.appendingPathComponent("downloads")))
        let device = try Device(name: name, account: account, cloud: cloud, folder: folder, clock: SystemClock(), log: Device.logLevel(fallback: .notice))
        let arguments = Array(command.dropFirst())
        func argument(_ index: Int, _ what: String) throws -> String {
            guard index < arguments.count else { throw UsageError(message: "\(command[0]) needs \(what)") }
            return arguments[index]
        }
        switch command[0] {
        case "add":
            let note = Note(title: try argument(0, "the note's text"))
            try device.store.save(note)
            print("added note \(note.recordName)")
        case "edit":
            guard var note = try device.store.fetch(Note.self, recordName: try argument(0, "a note ID")) else { throw UsageError(message: "no note \(arguments[0])") }
            note.title = try argument(1, "the new text")
            try device.store.save(note)
            print("edited \(note.recordName)")
        case "delete":
            try device.store.delete(Note.self, recordName: try argument(0, "a note ID"))
            print("deleted \(arguments[0])")
        case "list":
            for note in device.notes { print("note \(note.recordName): \(note.title)") }
            for list in try device.store.fetchAll(SharedList.self) {
                print("list \(list.recordName): \(list.title)\(list.ownerName == SyncConstants.currentUserOwnerName ? "" : " (shared by \(list.ownerName))")")
                for item in device.items where item.parent?.recordName == list.recordName { print("  item \(item.recordName): \(item.text)") }
            }
        case "sync":
            let ok = await device.sync()
            print(ok ? "synced" : "sync failed")
            return ok ? 0 : 1
        case "share-list":
            let list = SharedList(title: try argument(0, "a title"))
            try device.store.save(list)
            guard await device.sync() else { return 1 }
            let share = try await device.engine.share(list, with: [ShareParticipant(userRecordName: LocalCloud.userRecordName(forAccount: try argument(1, "an account to share with")), permission: .readWrite)])
            let invitation = cloud.shareMetadata(for: share, ownerAccount: account)
            print(String(decoding: try JSONEncoder().encode(invitation), as: UTF8.self))
        case "add-item":
            let listName = try argument(0, "a list ID")
            guard let list = try device.store.fetch(SharedList.self, recordName: listName) else { throw UsageError(message: "no list \(listName)") }
            let item = ListItem(ownerName: list.ownerName, parent: RecordReference(list), text: try argument(1, "the item's text"), assignee: .unset)
            try device.store.save(item)
            print("added item \(item.recordName)")
        case "accept":
            let invitation = try JSONDecoder().decode(ShareMetadata.self, from: Data(try argument(0, "an invitation").utf8))
            try await device.engine.acceptShare(invitation)
            // The list is stored; the command waits for the rest before the process ends.
            await device.engine.sync()
            print("accepted \(invitation.title)")
        case "publish":
            guard let note = try device.store.fetch(Note.self, recordName: try argument(0, "a note ID")) else { throw UsageError(message: "no note \(arguments[0])") }
            try await device.engine.publish(note)
            print("published \(note.recordName) (pushed at the next sync)")
        case "catalog":
            for note in try device.store.fetchAll(PublishedNote.self) where note.publicationLifecycle.isVisibleInCatalog {
                print("published \(note.recordName): \(note.title)")
            }
        default:
            throw UsageError(message: "unknown command \(command[0]) (see notes-demo --help)")
        }
        return 0
    }
}
