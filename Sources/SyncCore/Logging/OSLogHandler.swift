// Apple platforms only: `os.Logger` does not exist elsewhere. Each line goes to subsystem
// `syncgen`, its category as `os.Logger`'s, its names as a private value (shown as `<private>`
// unless the device allows private data in logs).
#if canImport(os)
import os

/// The runtime's log through `os.Logger`, filterable in Console by subsystem and category. Apple
/// platforms only (`os.Logger` exists nowhere else): elsewhere, `StandardErrorLogHandler`.
public struct OSLogHandler: SyncLogHandler {
    /// The subsystem Console filters the lines by.
    public let subsystem: String

    /// Lines under `subsystem`.
    public init(subsystem: String = "syncgen") {
        self.subsystem = subsystem
    }

    public func log(_ entry: SyncLogEntry) {
        let logger = Logger(subsystem: subsystem, category: entry.category.rawValue)
        let type: OSLogType = switch entry.level {
        case .debug: .debug
        case .info: .info
        case .notice: .default
        case .error: .error
        }
        let text = entry.message.description
        let names = entry.message.names
        if names.isEmpty {
            logger.log(level: type, "\(text, privacy: .public)")
        } else {
            logger.log(level: type, "\(text, privacy: .public) [\(names.joined(separator: ", "), privacy: .private)]")
        }
    }
}
#endif
