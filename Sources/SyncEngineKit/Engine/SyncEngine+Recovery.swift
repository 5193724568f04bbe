import Foundation
import SyncCore
import SyncPorts

// A failed pass's recovery, as the policy decides: a retry after a wait, a wait for the network.
extension SyncEngine {
    /// Carries out what the policy decided for a failed pass: a retry after the wait the policy
    /// gives (never at once twice in a row), or none when only a change can help.
    func handle(_ error: SyncError, _ action: RecoveryAction) {
        let delay = RecoveryPolicy.retryDelay(after: action, failuresBefore: failuresInARow)
        failuresInARow += 1
        guard let delay else {
            context.events.publish(.error(error))
            return
        }
        if action == .waitForNetwork {
            context.events.publish(.waitingForNetwork(retryAfter: delay))
        } else {
            context.events.publish(.retryScheduled(after: delay, reason: error))
        }
        schedulePass(after: delay)
    }

    func schedulePass(after seconds: TimeInterval) {
        guard !background.isEmpty else { return }
        scheduledPass?.cancel()
        let deadline = context.clock.now + seconds
        let clock = context.clock
        scheduledPass = Task { [weak self] in
            do { try await clock.sleep(until: deadline) } catch { return }
            await self?.requestPass()
        }
    }
}
