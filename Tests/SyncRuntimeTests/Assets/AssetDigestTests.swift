import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// The content digest of an asset's file: SHA-256 as FIPS 180-4 defines it, checked against the
/// standard's own examples (NIST, "Examples with Intermediate Values: SHA-256") and the
/// million-"a" message of FIPS 180-2 Appendix B.3.
@Suite("Asset digest: SHA-256")
struct AssetDigestTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func theStandardsExamples(message: String, digest: String) {
        #expect(SHA256.hex(of: Data(message.utf8)) == digest)
    }

    @Test func aMillionAsInUnevenPieces() {
        var hash = SHA256()
        var left = 1_000_000
        var piece = 1
        while left > 0 {
            let count = min(piece, left)
            hash.update(Data(repeating: UInt8(ascii: "a"), count: count))
            left -= count
            piece = piece * 3 % 997 + 1
        }
        #expect(hash.finalize() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func aFileHasTheDigestOfItsBytes() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("syncgen-digest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        let bytes = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: url)
        #expect(try SHA256.hex(ofFileAt: url) == SHA256.hex(of: bytes))
    }
}
