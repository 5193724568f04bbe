import Foundation

/// The privacy manifest this module ships (`PrivacyInfo.xcprivacy`, a resource of its bundle),
/// which Apple reads from every SDK inside an app: the reason for each "required reason" API the
/// module calls. docs/CloudKit.md says what it declares.
package enum PrivacyManifest {
    /// Where the manifest is in the module's bundle.
    package static var url: URL? { Bundle.module.url(forResource: "PrivacyInfo", withExtension: "xcprivacy") }
}
