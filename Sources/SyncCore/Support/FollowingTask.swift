/// The task an observable object follows a stream with, cancelled when the object that holds it
/// goes away (`LiveQuery`, `LiveRecordStatus`, `LiveEngineStatus`).
package final class FollowingTask: Sendable {
    private let task: Task<Void, Never>

    package init(_ task: Task<Void, Never>) {
        self.task = task
    }

    deinit {
        task.cancel()
    }
}
