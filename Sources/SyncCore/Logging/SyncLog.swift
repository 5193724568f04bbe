import Foundation

/// How much a log line matters: `os.Logger`'s levels. A pass and its outcome are `info`; each
/// request, with its counts and duration, `debug`; what someone debugging sync looks for first
/// (retries, changes set aside or reverted, merges, conflicts, account changes) `notice`; a pass
/// that stopped for a reason no retry fixes `error`.
public enum SyncLogLevel: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    case debug, info, notice, error

    public static func < (left: SyncLogLevel, right: SyncLogLevel) -> Bool { left.rawValue < right.rawValue }

    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .error: "error"
        }
    }
}

/// What part of sync a line is about: `os.Logger`'s categories, for filtering in Console.
public enum SyncLogCategory: String, Sendable, Hashable, CaseIterable {
    /// Passes: when one starts, how it ends, retries.
    case pass
    /// Each request to the cloud.
    case request
    /// Pulled and pushed changes, set aside and reverted ones.
    case changes
    /// Merges: conflicts and natural-key duplicates.
    case merges
    /// Shares accepted and ended.
    case sharing
    /// The iCloud account and its zones.
    case account
    /// Asset files.
    case assets
    /// The local store: a damaged store healed, a store that ran in memory.
    case store
}

/// A log line's text, with the names it mentions (record names, users, titles) kept apart:
/// `description` shows them as `<private>`, as `os.Logger` shows private values; `revealed`
/// shows them, for a handler an app installs on a developer's machine. Record contents (field
/// values) are never part of a line.
public struct SyncLogMessage: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    enum Part: Sendable, Hashable {
        case text(String)
        case name(String)
    }

    private(set) var parts: [Part]

    /// A line of plain text.
    public init(stringLiteral value: String) {
        parts = [.text(value)]
    }

    /// A line built by interpolation (`Interpolation`).
    public init(stringInterpolation: Interpolation) {
        parts = stringInterpolation.parts
    }

    /// The line with its names as `<private>`.
    public var description: String {
        parts.map { part in
            switch part {
            case .text(let text): text
            case .name: "<private>"
            }
        }.joined()
    }

    /// The line with its names.
    public var revealed: String {
        parts.map { part in
            switch part {
            case .text(let text), .name(let text): text
            }
        }.joined()
    }

    /// The names the line mentions, in order.
    public var names: [String] {
        parts.compactMap { part in
            if case .name(let name) = part { return name }
            return nil
        }
    }

    /// Builds a line: `"\(count) changes of \(name: recordName)"`.
    public struct Interpolation: StringInterpolationProtocol, Sendable {
        var parts: [Part] = []

        /// An empty line to build.
        public init(literalCapacity: Int, interpolationCount: Int) {}

        /// Text of the line as written.
        public mutating func appendLiteral(_ literal: String) {
            parts.append(.text(literal))
        }

        /// A value that names nobody and nothing a user wrote: a count, a code, a scope.
        public mutating func appendInterpolation<Value>(_ value: Value) {
            parts.append(.text("\(value)"))
        }

        /// A name a user may consider theirs: a record's, a person's, a share's title.
        public mutating func appendInterpolation<Value>(name value: Value) {
            parts.append(.name("\(value)"))
        }

        /// Another line, its names still marked.
        public mutating func appendInterpolation(_ message: SyncLogMessage) {
            parts += message.parts
        }
    }
}

/// One line of the runtime's log.
public struct SyncLogEntry: Sendable, Hashable, CustomStringConvertible {
    /// How much it matters.
    public var level: SyncLogLevel
    /// What part of sync it is about.
    public var category: SyncLogCategory
    /// What it says.
    public var message: SyncLogMessage

    /// A line.
    public init(level: SyncLogLevel, category: SyncLogCategory, message: SyncLogMessage) {
        self.level = level
        self.category = category
        self.message = message
    }

    /// `[notice] changes: ...`, names as `<private>`.
    public var description: String { "[\(level)] \(category.rawValue): \(message)" }
}

/// Where the runtime's log lines go (`SyncConfiguration.logHandler`): `os.Logger` on Apple
/// platforms (`OSLogHandler`), standard error in the command-line tools
/// (``StandardErrorLogHandler``), or whatever an app installs. Called on the engine's tasks:
/// it must not block.
public protocol SyncLogHandler: Sendable {
    func log(_ entry: SyncLogEntry)
}

/// The log handler an engine has unless its configuration names another: `os.Logger` where it
/// exists (subsystem `syncgen`), none elsewhere.
public enum SyncLog {
    /// `OSLogHandler()` where `os.Logger` exists, else nil.
    public static var platformDefault: (any SyncLogHandler)? {
        #if canImport(os)
        OSLogHandler()
        #else
        nil
        #endif
    }
}

/// Writes lines at `minimumLevel` and above to standard error, one per line; names as
/// `<private>` unless `revealingNames`.
public struct StandardErrorLogHandler: SyncLogHandler {
    /// The lowest level written.
    public var minimumLevel: SyncLogLevel
    /// Whether names are written as they are, rather than as `<private>`.
    public var revealingNames: Bool

    /// A handler for the command-line tools.
    public init(minimumLevel: SyncLogLevel = .info, revealingNames: Bool = false) {
        self.minimumLevel = minimumLevel
        self.revealingNames = revealingNames
    }

    public func log(_ entry: SyncLogEntry) {
        guard entry.level >= minimumLevel else { return }
        let text = revealingNames ? entry.message.revealed : entry.message.description
        FileHandle.standardError.write(Data("syncgen [\(entry.level)] \(entry.category.rawValue): \(text)\n".utf8))
    }
}
