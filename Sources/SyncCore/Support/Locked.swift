import Foundation

/// A value behind a lock: the runtime's one tool for shared mutable state outside actors. (An
/// `NSLock` rather than `Mutex`, which Apple platforms only have from their 2024 releases on.)
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock. Never await inside: a lock cannot be held
    /// across a suspension.
    @discardableResult
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
