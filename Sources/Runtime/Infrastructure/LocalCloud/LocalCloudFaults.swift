import Foundation

/// The kinds of request a device makes, for counting and for aiming faults.
public enum CloudRequestKind: String, Sendable, Hashable, CaseIterable {
    case accountStatus, saveZones, deleteZones, modify, fetchRecords, fetchDatabaseChanges, fetchZoneChanges
    case query, fetchShares, acceptShare, saveSubscription
}

/// "The next `count` requests of `kind` (by `account`) fail with `error`." A `serverResponseLost`
/// error is applied first and its reply lost, as when a connection drops after the server wrote.
public struct ScriptedFault: Sendable {
    public var kind: CloudRequestKind?
    public var account: String?
    public var remaining: Int
    public var error: CloudError

    public init(_ error: CloudError, times count: Int = 1, on kind: CloudRequestKind? = nil, account: String? = nil) {
        self.error = error
        self.remaining = count
        self.kind = kind
        self.account = account
    }
}

/// Faults that strike at random, with a probability per request kind, from a seeded source.
public struct RandomFaults: Sendable {
    public var probabilities: [CloudRequestKind: Double]
    /// Codes to choose from; transient ones carry `retryAfter`.
    public var codes: [CloudErrorCode]
    public var retryAfter: TimeInterval
    var random: SeededRandom

    public init(seed: UInt64, probabilities: [CloudRequestKind: Double], codes: [CloudErrorCode], retryAfter: TimeInterval = 5) {
        self.probabilities = probabilities
        self.codes = codes
        self.retryAfter = retryAfter
        self.random = SeededRandom(seed: seed)
    }

    /// Every kind at one probability.
    public init(seed: UInt64, probability: Double, codes: [CloudErrorCode], retryAfter: TimeInterval = 5) {
        self.init(seed: seed, probabilities: Dictionary(uniqueKeysWithValues: CloudRequestKind.allCases.map { ($0, probability) }), codes: codes, retryAfter: retryAfter)
    }

    mutating func strike(_ kind: CloudRequestKind) -> CloudError? {
        guard let probability = probabilities[kind], probability > 0, !codes.isEmpty,
            Double.random(in: 0..<1, using: &random) < probability
        else { return nil }
        let code = codes[Int.random(in: 0..<codes.count, using: &random)]
        let waits: Set<CloudErrorCode> = [.serviceUnavailable, .requestRateLimited, .zoneBusy]
        return CloudError(code, "injected fault", retryAfter: waits.contains(code) ? retryAfter : nil)
    }
}

/// The faults a LocalCloud process injects, in order: scripted ones first, then random ones.
struct FaultPlan {
    var scripted: [ScriptedFault] = []
    var random: RandomFaults?

    mutating func fault(for kind: CloudRequestKind, account: String?) -> CloudError? {
        if let index = scripted.firstIndex(where: { ($0.kind == nil || $0.kind == kind) && ($0.account == nil || $0.account == account) }) {
            let error = scripted[index].error
            scripted[index].remaining -= 1
            if scripted[index].remaining <= 0 { scripted.remove(at: index) }
            return error
        }
        return random?.strike(kind)
    }
}
