import Foundation
import SyncCore
import SyncEngineKit
import SyncLocalStore
import SyncPorts

/// `syncgen-inspect`: reads a store file, offline, and says where sync stands in it. It opens the
/// file to read only: nothing is written, and the app may hold it open meanwhile.
struct Inspector {
    static let help = """
        USAGE: syncgen-inspect STORE [COMMAND] [--format text|json] [--contents]

        Reads a syncgen store file (an app's, copied out of a device or a simulator, or the Notes
        example's) without writing it, while the app may hold it open.

        COMMANDS:
          summary             where sync stands (the default): the account, each zone's last pull,
                              changes waiting by type, changes set aside, unreadable records,
                              parked work, recent conflicts, catalogs, the asset cache
          pending             the records whose changes wait to be pushed
          set-aside           the changes the cloud refused for good, with its errors
          conflicts           the conflicts kept (`--contents`: with their values)
          history TYPE NAME   one record: its kept changes, the versions the cloud returned, a
                              change set aside, its conflicts, its asset

        Nothing a user wrote is shown unless `--contents` asks for a conflict's values.
        """

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    enum Format: String {
        case text, json
    }

    let storeURL: URL
    let command: [String]
    let format: Format
    let includingContents: Bool

    init(arguments: [String]) throws {
        var positional: [String] = []
        var format = Format.text
        var contents = false
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h": throw UsageError(description: Self.help)
            case "--contents": contents = true
            case "--format":
                guard let value = rest.popFirst(), let chosen = Format(rawValue: value) else {
                    throw UsageError(description: "--format takes text or json (see syncgen-inspect --help)")
                }
                format = chosen
            case _ where argument.hasPrefix("--"): throw UsageError(description: "unknown option \(argument) (see syncgen-inspect --help)")
            default: positional.append(argument)
            }
        }
        guard let store = positional.first else { throw UsageError(description: "needs a store file (see syncgen-inspect --help)") }
        storeURL = URL(fileURLWithPath: store)
        command = Array(positional.dropFirst())
        switch command.first ?? "summary" {
        case "summary", "pending", "set-aside", "conflicts":
            guard command.count <= 1 else { throw UsageError(description: "\(command[0]) takes no arguments (see syncgen-inspect --help)") }
        case "history":
            guard command.count == 3 else { throw UsageError(description: "history takes a record type and a record name (see syncgen-inspect --help)") }
        case let other:
            throw UsageError(description: "unknown command \(other) (see syncgen-inspect --help)")
        }
        self.format = format
        includingContents = contents
    }

    /// The store is checked by what opening it without waiting finds (`SyncStore(readingOnly:)`),
    /// but SQLite then opens the path again by name: a path swapped for a named pipe in between
    /// holds that open for ever, waiting for a writer. A watch, which does nothing while the
    /// path is what was checked, ends the tool with the reason once the path is a pipe and the
    /// tool has not finished after `swapWatchDelay` seconds (the only wall-clock wait: a tool's,
    /// never a test's).
    static func watchForASwappedPath(_ url: URL) {
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: swapWatchDelay)
            var info = stat()
            guard lstat(url.path, &info) == 0, mode_t(info.st_mode) & mode_t(S_IFMT) == mode_t(S_IFIFO) else { return }
            FileHandle.standardError.write(Data("syncgen-inspect: \(url.path): not a store: it became a named pipe while it was being opened\n".utf8))
            exit(1)
        }
    }

    /// How long the tool runs before the watch for a swapped path looks, in seconds.
    static let swapWatchDelay: TimeInterval = 5

    /// What the command prints.
    func run() throws -> String {
        let store = try SyncStore(readingOnly: storeURL)
        switch command.first ?? "summary" {
        case "summary":
            let diagnostics = try SyncDiagnostics.read(from: store, at: Date(), includingContents: includingContents)
            return format == .json ? try Self.json(diagnostics) : Self.text(diagnostics, file: storeURL.path)
        case "pending":
            let pending = try store.transaction { try SyncDiagnostics.pendingRecords(in: $0, besides: try $0.failedChanges()) }
            if format == .json { return try Self.json(pending.map { ["recordType": $0.recordType, "recordName": $0.recordName] }) }
            return pending.isEmpty ? "nothing waits to be pushed" : pending.map { "\($0)" }.joined(separator: "\n")
        case "set-aside":
            let changes = try SyncDiagnostics.read(from: store, at: Date(), includingContents: false).setAside
            if format == .json { return try Self.json(changes) }
            return changes.isEmpty ? "nothing is set aside" : changes.map {
                "\($0.kind) of \($0.recordType) \($0.recordName) (zone of \($0.ownerName)) at \($0.failedAt.formatted(.iso8601)): error \($0.errorCode): \($0.error)"
            }.joined(separator: "\n")
        case "conflicts":
            let conflicts = try SyncDiagnostics.read(from: store, at: Date(), includingContents: includingContents).recentConflicts
            if format == .json { return try Self.json(conflicts) }
            return conflicts.isEmpty ? "no conflicts kept" : conflicts.map(Self.text).joined(separator: "\n")
        case "history":
            let report = try store.report(recordType: command[1], recordName: command[2])
            return format == .json ? try Self.json(report) : Self.text(report)
        default:
            throw UsageError(description: "unknown command \(command[0]) (see syncgen-inspect --help)")
        }
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func text(_ diagnostics: SyncDiagnostics, file: String) -> String {
        var lines = ["store \(file) (read only)", "account: \(diagnostics.account ?? "none signed in")"]
        lines.append("zones:")
        for zone in diagnostics.zones {
            lines.append("  \(zone.scope) \(zone.zoneName)/\(zone.ownerName): \(zone.hasToken ? "token kept" : "no token"), last pulled \(zone.lastPulledAt?.formatted(.iso8601) ?? "never")"
                + (zone.hasUnfetchedChanges ? ", changes not fetched yet" : "") + (zone.movedInto.map { ", its records moved into \($0)" } ?? ""))
        }
        let pending = diagnostics.pendingChanges.sorted { $0.key < $1.key }
        lines.append("pending changes: " + (pending.isEmpty ? "none" : pending.map { "\($0.value) \($0.key)" }.joined(separator: ", ")))
        lines.append("set aside: \(diagnostics.setAside.count)")
        for change in diagnostics.setAside { lines.append("  \(change.kind) of \(change.recordType) \(change.recordName): error \(change.errorCode): \(change.error)") }
        lines.append("unreadable records: \(diagnostics.unreadableRecords.count)")
        for record in diagnostics.unreadableRecords {
            let why = record.isUnreadableByThisVersion
                ? "this app version cannot read it, set aside"
                : SyncEvent.count(record.failedFetches, "fetch") + " failed" + (record.isSetAside ? ", set aside" : "")
            lines.append("  \(record.recordName) in \(record.zone): error \(record.errorCode), \(why)")
        }
        lines.append("parked: " + (diagnostics.parked.isEmpty ? "none" : diagnostics.parked.map { "\($0.count) of \($0.userRecordName)" }.joined(separator: ", ")))
        lines.append("acceptances waiting: \(diagnostics.pendingAcceptances)")
        lines.append("recent conflicts: \(diagnostics.recentConflicts.count)")
        for conflict in diagnostics.recentConflicts { lines.append("  " + text(conflict)) }
        lines.append("catalogs: " + (diagnostics.catalogs.isEmpty ? "none" : diagnostics.catalogs.map {
            "\($0.recordType) (refreshed \($0.lastRefreshedAt?.formatted(.iso8601) ?? "never")\($0.refreshRequested ? ", refresh asked for" : ""))"
        }.joined(separator: ", ")))
        let states = diagnostics.assetCache.entriesByState.sorted { $0.key < $1.key }
        lines.append("asset cache: \(diagnostics.assetCache.bytesOnDevice) bytes on this device" + (states.isEmpty ? "" : "; " + states.map { "\($0.value) \($0.key)" }.joined(separator: ", ")))
        return lines.joined(separator: "\n")
    }

    static func text(_ conflict: SyncDiagnostics.Conflict) -> String {
        var line = "\(conflict.recordType) \(conflict.recordName) at \(conflict.resolvedAt.formatted(.iso8601)): \(conflict.fields.joined(separator: ", "))"
        for (field, values) in (conflict.values ?? [:]).sorted(by: { $0.key < $1.key }) {
            line += "\n    \(field): ancestor \(values[0]), local \(values[1]), server \(values[2]), kept \(values[3])"
        }
        return line
    }

    static func text(_ report: RecordReport) -> String {
        var lines = ["\(report.recordType) \(report.recordName): \(report.isStored ? "stored" : "not stored")"]
        lines.append("changes kept (not pushed yet): " + (report.changes.isEmpty ? "none" : ""))
        for change in report.changes { lines.append("  #\(change.sequence) \(change.kind) by \(change.author)\(change.at.map { " at \($0.formatted(.iso8601))" } ?? "")") }
        lines.append("versions the cloud returned: " + (report.serverVersions.isEmpty ? "none" : ""))
        for version in report.serverVersions {
            lines.append("  in \(version.zone): tag \(version.changeTag ?? "none"), saved \(version.modifiedAt?.formatted(.iso8601) ?? "?") by \(version.modifiedBy ?? "?"), made by \(version.createdBy ?? "?")\(version.shareRecordName.map { ", root of share \($0)" } ?? "")")
        }
        lines.append("set aside: \(report.setAside ?? "no")")
        lines.append("conflicts kept: " + (report.conflicts.isEmpty ? "none" : ""))
        for conflict in report.conflicts { lines.append("  \(conflict)") }
        lines.append("asset: \(report.asset ?? "none")")
        return lines.joined(separator: "\n")
    }
}
