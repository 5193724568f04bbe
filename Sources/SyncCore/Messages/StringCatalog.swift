import Foundation

/// A String Catalog (`.xcstrings`, the JSON file Xcode edits) read as it is: each key's text per
/// language. The runtime's catalog is a resource copied as it is, not compiled, so the same file
/// answers on every platform (SwiftPM compiles catalogs only where Xcode's tools are).
struct StringCatalog: Sendable {
    /// Each key's text, by language.
    let strings: [String: [String: String]]
    let sourceLanguage: String

    /// The runtime's own catalog; empty (every message its key) if the bundle lacks it.
    static let runtime: StringCatalog = {
        guard let url = Bundle.module.url(forResource: "Localizable", withExtension: "xcstrings"),
            let data = try? Data(contentsOf: url), let catalog = StringCatalog(data)
        else { return StringCatalog(strings: [:], sourceLanguage: "en") }
        return catalog
    }()

    init(strings: [String: [String: String]], sourceLanguage: String) {
        self.strings = strings
        self.sourceLanguage = sourceLanguage
    }

    /// The catalog in `data`; nil when it is not one.
    init?(_ data: Data) {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let entries = root["strings"] as? [String: Any]
        else { return nil }
        var strings: [String: [String: String]] = [:]
        for (key, entry) in entries {
            let localizations = (entry as? [String: Any])?["localizations"] as? [String: Any] ?? [:]
            for (language, localization) in localizations {
                let unit = (localization as? [String: Any])?["stringUnit"] as? [String: Any]
                if let value = unit?["value"] as? String { strings[key, default: [:]][language] = value }
            }
        }
        self.init(strings: strings, sourceLanguage: root["sourceLanguage"] as? String ?? "en")
    }

    /// The key's text in the first of `languages` the catalog has (`fr-CA` finds `fr-CA`, then
    /// `fr`), else in its source language; nil for a key it lacks.
    func string(forKey key: String, languages: [String]) -> String? {
        guard let texts = strings[key] else { return nil }
        for language in languages {
            if let text = texts[language] { return text }
            let base = String(language.prefix { $0 != "-" && $0 != "_" })
            if let text = texts[base] { return text }
        }
        return texts[sourceLanguage]
    }
}

extension Bundle {
    /// SyncCore's resources: the String Catalog (tests read the shipped file through it).
    package static var syncCoreResources: Bundle? { .module }
}
