import Foundation

/// Bytes of a given size, distinct per seed, standing for an image.
func picture(_ size: Int, seed: UInt8 = 1) -> Data {
    Data((0..<size).map { UInt8(truncatingIfNeeded: $0) &+ seed })
}

extension SyncWorld {
    /// One of LocalCloud's counters ("assetBytes.uploaded"), 0 when it never counted.
    func counter(_ name: String) throws -> Int64 { try cloud.counters()[name] ?? 0 }
}
