import Foundation
import Testing
@testable import SyncLocalStore

/// Apple reads a privacy manifest from every SDK inside an app. The runtime's is a resource of the
/// local store's bundle (the module whose asset cache reads file metadata); .ci/privacy-manifest
/// holds its declarations to the code.
@Suite("App Store: the privacy manifest")
struct PrivacyManifestTests {
    /// In the built bundle, as a property list of Apple's keys: no tracking, nothing collected,
    /// file metadata read inside the app's container (C617.1). Breaking it: the resource left out
    /// of Package.swift (no URL), or an XML mistake in the file (no property list).
    @Test func theManifestIsInTheBundleAndSaysWhatTheRuntimeDoes() throws {
        let url = try #require(PrivacyManifest.url, "PrivacyInfo.xcprivacy is not in SyncLocalStore's bundle")
        var format = PropertyListSerialization.PropertyListFormat.binary
        let plist = try #require(try PropertyListSerialization.propertyList(from: Data(contentsOf: url), options: [], format: &format) as? [String: Any])
        #expect(format == .xml)
        #expect(plist["NSPrivacyTracking"] as? Bool == false)
        #expect((plist["NSPrivacyTrackingDomains"] as? [Any])?.isEmpty == true)
        #expect((plist["NSPrivacyCollectedDataTypes"] as? [Any])?.isEmpty == true)
        let accessed = try #require(plist["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        let declared = Dictionary(uniqueKeysWithValues: accessed.compactMap { entry -> (String, [String])? in
            guard let type = entry["NSPrivacyAccessedAPIType"] as? String else { return nil }
            return (type, entry["NSPrivacyAccessedAPITypeReasons"] as? [String] ?? [])
        })
        #expect(declared == ["NSPrivacyAccessedAPICategoryFileTimestamp": ["C617.1"]])
    }
}
