/// The task an observable object follows a stream with, cancelled when the object that holds it
/// goes away (`LiveQuery`, `LiveRecordStatus`, `LiveShare`, `LiveEngineStatus`).
package final class FollowingTask: Sendable {
    private let task: Task<Void, Never>

    package init(_ task: Task<Void, Never>) {
        self.task = task
    }

    deinit {
        task.cancel()
    }
}

extension FollowingTask {
    /// An observable object following `updates` on the main actor: each value goes to `apply`,
    /// and a failure ends the following through `failed`. The object's closures hold it weakly,
    /// so releasing it cancels the task.
    @MainActor
    package static func following<Value: Sendable>(
        _ updates: AsyncThrowingStream<Value, any Error>,
        apply: @escaping @MainActor (Value) -> Void, failed: @escaping @MainActor (any Error) -> Void
    ) -> FollowingTask {
        FollowingTask(Task { @MainActor in
            do {
                for try await value in updates { apply(value) }
            } catch {
                failed(error)
            }
        })
    }
}
