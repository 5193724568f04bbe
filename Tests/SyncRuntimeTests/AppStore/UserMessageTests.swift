import Foundation
import Testing
@testable import SyncCore
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime

/// The messages a person using the app reads: each read from the runtime's String Catalog
/// (`Localizable.xcstrings`, a resource of SyncCore's bundle), in the user's language where the
/// catalog has it, and each error that has one says it as its `localizedDescription`.
@Suite("App Store: messages a user reads, in their language")
struct UserMessageTests {
    /// The catalog as the bundle ships it, read here apart from the runtime's reader.
    private static func shippedCatalog() throws -> [String: Any] {
        let url = try #require(Bundle.syncCoreResources?.url(forResource: "Localizable", withExtension: "xcstrings"), "Localizable.xcstrings is not in SyncCore's bundle")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        #expect(root["sourceLanguage"] as? String == "en")
        return try #require(root["strings"] as? [String: Any])
    }

    private static func english(_ key: String, in strings: [String: Any]) -> String? {
        let entry = strings[key] as? [String: Any]
        let english = (entry?["localizations"] as? [String: Any])?["en"] as? [String: Any]
        return (english?["stringUnit"] as? [String: Any])?["value"] as? String
    }

    /// Every message has its English in the catalog, and reads it from there; the catalog holds
    /// no message the runtime lacks. Breaking it: a key renamed on one side (its text is then the
    /// bare key), or the catalog left out of the bundle.
    @Test(arguments: UserMessage.Key.allCases)
    func eachMessageIsReadFromTheCatalog(_ key: UserMessage.Key) throws {
        let strings = try Self.shippedCatalog()
        let english = try #require(Self.english(key.rawValue, in: strings), "no English for \(key) in the catalog")
        let message = UserMessage(key, arguments: ["Groceries"], languages: ["en-GB"])
        #expect(message.text == english.replacingOccurrences(of: "%@", with: "Groceries"))
        #expect(message.text != key.rawValue)
        #expect(Set(strings.keys) == Set(UserMessage.Key.allCases.map(\.rawValue)))
    }

    /// How a translation is added: a language's text beside English in the catalog. The first of
    /// the user's languages the catalog has wins (a region falls back to its language); English
    /// where it has none; a translation may reorder the placeholders.
    @Test func theUsersLanguageIsChosenAndEnglishStandsIn() throws {
        let json = """
            {"sourceLanguage": "en", "version": "1.0", "strings": {"readOnlyShare": {"localizations": {
              "en": {"stringUnit": {"state": "translated", "value": "You can view “%@” but not change it."}},
              "fr": {"stringUnit": {"state": "translated", "value": "Vous pouvez voir « %1$@ » sans le modifier (100 %%)."}}}}}}
            """
        let catalog = try #require(StringCatalog(Data(json.utf8)))
        let french = UserMessage(.readOnlyShare, arguments: ["Courses"], catalog: catalog, languages: ["fr-CA", "en"])
        #expect(french.text == "Vous pouvez voir « Courses » sans le modifier (100 %).")
        let german = UserMessage(.readOnlyShare, arguments: ["Einkauf"], catalog: catalog, languages: ["de-DE"])
        #expect(german.text == "You can view “Einkauf” but not change it.")
        #expect(UserMessage(.offline, arguments: [], catalog: catalog, languages: ["fr"]).text == "offline", "a key the catalog lacks reads as itself")
    }

    /// The errors a user can act on carry their message; the rest carry none.
    @Test func errorsSayTheirMessageAsTheirLocalizedDescription() {
        let cases: [(Error, UserMessage.Key?)] = [
            (CloudError(.quotaExceeded), .iCloudStorageFull),
            (CloudError(.notAuthenticated), .notSignedIn),
            (CloudError(.accountTemporarilyUnavailable), .iCloudTemporarilyUnavailable),
            (CloudError(.managedAccountRestricted), .iCloudRestricted),
            (CloudError(.networkUnavailable), .offline),
            (SyncError.cloud(CloudError(.networkFailure)), .offline),
            (SyncError.localStore(LocalStoreError(.full, "disk I/O")), .deviceStorageFull),
            (SyncError.assetFiles(.store(LocalStoreError(.full, "disk I/O"))), .deviceStorageFull),
            (CloudError(.unknownItem), nil),
            (CloudError(.serverRecordChanged), nil),
            (SyncError.localStore(LocalStoreError(.busy, "locked")), nil),
        ]
        for (error, key) in cases {
            let message: UserMessage? = (error as? SyncError)?.userMessage ?? (error as? CloudError)?.userMessage
            #expect(message?.key == key, "\(error)")
            if let key {
                #expect(error.localizedDescription == UserMessage(key).text, "\(error)")
            }
        }
        #expect(CloudError(.quotaExceeded).description == "quotaExceeded (25)", "the developer's message stays apart")
        #expect(AccountStatus.allCases.map { $0.userMessage?.key } == [nil, .notSignedIn, .iCloudRestricted, .iCloudTemporarilyUnavailable])
    }

    /// Through the engine: a link whose share its owner stopped says the share is gone; a change
    /// a read-only share refuses says so, with the share's title. Breaking it (the acceptance's
    /// `unknownItem` left as it came): the error has no message.
    @Test func theEngineAndTheStoreSayWhatTheUserMeets() async throws {
        let household = try await EngineSharingTests.Household(permission: .readOnly)
        let (alice, bob) = (household.alice, household.bob)
        var milk = try #require(try bob.store.fetch(ListItem.self, recordName: "milk"))
        milk.text = "Oat milk"
        #expect {
            try bob.store.save(milk)
        } throws: { error in
            (error as? ReadOnlyShareRefusal)?.userMessage.key == .readOnlyShare
                && error.localizedDescription == UserMessage(.readOnlyShare, arguments: ["Groceries"]).text
                && error.localizedDescription.contains("Groceries")
        }

        let carol = try household.world.device("carol-phone", account: "carol")
        await carol.sync()
        let chores = try #require(try alice.store.fetch(SharedList.self, recordName: "chores"))
        let opened = try await alice.engine.share(chores, inviting: [], publicPermission: .readOnly)
        let link = try #require(opened.url)
        try await alice.engine.stopSharing(chores)
        await #expect {
            try await carol.engine.acceptShare(at: link)
        } throws: { error in
            (error as? SyncError)?.userMessage?.key == .shareUnavailable
                && error.localizedDescription == UserMessage(.shareUnavailable).text
        }
    }
}
