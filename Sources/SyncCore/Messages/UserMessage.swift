import Foundation

/// What to tell the person using the app when sync cannot go on by itself: iCloud storage full,
/// not signed in, a share that is gone, a change a read-only share refuses. Apart from the
/// developer's message (an error's `description`, for logs), in the user's language: read from
/// the runtime's String Catalog (`Localizable.xcstrings`, English, translations added beside it),
/// English where it has no translation. An app shows `text` as it is, or its own words for `key`.
///
/// The errors that have one say so: `SyncError.userMessage`, `CloudError.userMessage`,
/// `ReadOnlyShareRefusal.userMessage`, and `localizedDescription` (`LocalizedError`) is its text.
public struct UserMessage: Sendable, Hashable, CustomStringConvertible {
    /// Each message, by its key in the String Catalog.
    public enum Key: String, Sendable, Hashable, CaseIterable {
        /// The user's iCloud storage is full: nothing more uploads until they free some or buy more.
        case iCloudStorageFull
        /// No iCloud account is signed in on the device.
        case notSignedIn
        /// The iCloud account cannot be used for now (it is being set up, or needs the user's
        /// attention in Settings).
        case iCloudTemporarilyUnavailable
        /// The account's use of iCloud is restricted (parental controls, a managed device).
        case iCloudRestricted
        /// The device is offline: changes wait on it and sync when it is back.
        case offline
        /// A share's link leads to a share its owner stopped, or that no longer exists.
        case shareUnavailable
        /// The user may only read what someone shared: their change was not kept. One argument:
        /// the share's title (its owner's name for it).
        case readOnlyShare
        /// The same, for a share without a title.
        case readOnlyShareUntitled
        /// The device has no storage left for the app's data.
        case deviceStorageFull
    }

    /// Which message: what an app matches to put its own words instead.
    public let key: Key
    /// What fills the message's placeholders (a share's title), in order.
    public let arguments: [String]
    /// The message in the user's preferred language, English where the catalog has none.
    public let text: String

    /// The message `key`, with `arguments`, in the first of `languages` the catalog has (the
    /// user's preferred languages unless told).
    public init(_ key: Key, arguments: [String] = [], languages: [String] = Locale.preferredLanguages) {
        self.init(key, arguments: arguments, catalog: .runtime, languages: languages)
    }

    init(_ key: Key, arguments: [String], catalog: StringCatalog, languages: [String]) {
        self.key = key
        self.arguments = arguments
        let format = catalog.string(forKey: key.rawValue, languages: languages) ?? key.rawValue
        text = Self.filling(format, with: arguments)
    }

    public var description: String { text }

    /// `%@` (and `%1$@`, `%2$@`... in a translation that reorders them) replaced by the arguments:
    /// string arguments only, so no format can read what was not given.
    private static func filling(_ format: String, with arguments: [String]) -> String {
        var text = ""
        var next = 0
        var rest = Substring(format)
        while let percent = rest.firstIndex(of: "%") {
            text += rest[..<percent]
            rest = rest[rest.index(after: percent)...]
            if rest.hasPrefix("%") {
                text += "%"
                rest = rest.dropFirst()
            } else if rest.hasPrefix("@") {
                text += next < arguments.count ? arguments[next] : ""
                next += 1
                rest = rest.dropFirst()
            } else if let dollar = rest.firstIndex(of: "$"), let position = Int(rest[..<dollar]), rest[rest.index(after: dollar)...].hasPrefix("@") {
                text += (1...arguments.count).contains(position) ? arguments[position - 1] : ""
                rest = rest[rest.index(dollar, offsetBy: 2)...]
            } else {
                text += "%"
            }
        }
        return text + rest
    }
}
