import Foundation

/// The links of LocalCloud's shares (a share's `url`): the owner, zone and share, under a host
/// that can never resolve (`.invalid`, RFC 2606), so no link of the simulator reaches a network.
enum LocalCloudShareLink {
    private static let host = "share.localcloud.invalid"
    /// Everything but the separator of path components.
    private static let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))

    static func url(ofShare name: String, in zone: StoredZone) -> URL {
        let path = [zone.owner, zone.name, name].map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }
        return URL(string: "https://\(host)/" + path.joined(separator: "/"))!
    }

    /// The share a link names, or nil for a link LocalCloud did not make.
    static func share(at url: URL) -> (zone: StoredZone, name: String)? {
        guard url.scheme == "https", url.host == host,
            let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath
        else { return nil }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0.removingPercentEncoding }
        guard parts.count == 3, let owner = parts[0], let zone = parts[1], let name = parts[2] else { return nil }
        return (StoredZone(owner: owner, name: zone), name)
    }
}
