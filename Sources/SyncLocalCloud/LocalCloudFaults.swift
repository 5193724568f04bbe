import Foundation
import SyncCore

/// The kinds of request a device makes, for counting and for aiming faults.
public enum CloudRequestKind: String, Sendable, Hashable, CaseIterable {
    case accountStatus, userRecordID, saveZones, deleteZones, modify, fetchRecords, fetchDatabaseChanges, fetchZoneChanges
    case query, fetchShares, fetchShareMetadata, acceptShare, fetchParticipants, saveSubscription
}

/// "The next `count` requests of `kind` (by `account`) fail with `error`." A `serverResponseLost`
/// error is applied first and its reply lost, as when a connection drops after the server wrote.
public struct ScriptedFault: Sendable {
    /// The kind of request that fails; nil: any.
    public var kind: CloudRequestKind?
    /// The account whose requests fail; nil: any.
    public var account: String?
    /// How many more requests fail.
    public var remaining: Int
    /// The error they fail with.
    public var error: CloudError

    /// The next `count` requests of `kind` by `account` fail with `error`.
    public init(_ error: CloudError, times count: Int = 1, on kind: CloudRequestKind? = nil, account: String? = nil) {
        self.error = error
        self.remaining = count
        self.kind = kind
        self.account = account
    }
}

/// Faults that strike at random, with a probability per request kind, from a seeded source.
public struct RandomFaults: Sendable {
    /// The probability that a request of each kind fails; kinds not named never do.
    public var probabilities: [CloudRequestKind: Double]
    /// Codes to choose from; transient ones carry `retryAfter`.
    public var codes: [CloudErrorCode]
    /// The wait transient codes carry.
    public var retryAfter: TimeInterval
    var random: SeededRandom

    /// Faults drawn from `seed`, so a failing run can be replayed.
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

/// At most `requests` requests of an account in each window of `seconds`, as CloudKit throttles
/// a client that asks too often (Apple, `CKError.Code.requestRateLimited`: "An error that occurs
/// when CloudKit rate-limits requests"; the error's `retryAfterSeconds` says how long to wait).
public struct RequestRateLimit: Sendable, Hashable {
    /// Requests allowed per window.
    public var requests: Int
    /// The window's length.
    public var seconds: TimeInterval

    /// At most `requests` requests in each window of `seconds`.
    public init(requests: Int, per seconds: TimeInterval) {
        self.requests = requests
        self.seconds = seconds
    }
}

/// One account's requests in the current window of its rate limit.
struct RateWindow {
    let limit: RequestRateLimit
    var window: Int64 = .min
    var used = 0

    /// Counts a request at `now`; the wait before the next window when the limit is reached.
    mutating func admit(at now: Date) -> TimeInterval? {
        let seconds = max(limit.seconds, 0.001)
        let current = Int64((now.timeIntervalSince1970 / seconds).rounded(.down))
        if current != window {
            window = current
            used = 0
        }
        guard used >= limit.requests else {
            used += 1
            return nil
        }
        return Double(current + 1) * seconds - now.timeIntervalSince1970
    }
}

/// The faults a LocalCloud process injects, in order: scripted ones, rate limits, then random
/// ones.
struct FaultPlan {
    var scripted: [ScriptedFault] = []
    var rateLimits: [String: RateWindow] = [:]
    var random: RandomFaults?

    mutating func fault(for kind: CloudRequestKind, account: String?, at now: Date) -> CloudError? {
        if let index = scripted.firstIndex(where: { ($0.kind == nil || $0.kind == kind) && ($0.account == nil || $0.account == account) }) {
            let error = scripted[index].error
            scripted[index].remaining -= 1
            if scripted[index].remaining <= 0 { scripted.remove(at: index) }
            return error
        }
        if let account, let wait = rateLimits[account]?.admit(at: now) {
            return CloudError(.requestRateLimited, "\(account) made more than \(rateLimits[account]!.limit.requests) requests in \(rateLimits[account]!.limit.seconds) s", retryAfter: wait)
        }
        return random?.strike(kind)
    }
}

/// A record whose next reads fail (`LocalCloud.makeUnreadable`).
struct UnreadableRecordFault {
    var remaining: Int
    let error: CloudError
}

extension LocalCloudServer {
    /// The error a read of `name` meets now, counting the read; nil when it reads well.
    func readFault(_ name: String) -> CloudError? {
        guard let fault = unreadable[name], fault.remaining > 0 else { return nil }
        unreadable[name]?.remaining -= 1
        return fault.error
    }
}
