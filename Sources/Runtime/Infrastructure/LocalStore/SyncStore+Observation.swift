import Foundation
import SyncCore

extension SyncStore {
    /// The models of a type, filtered and sorted, at once and again after every committed
    /// transaction that saved or deleted one of that type, whoever wrote it: the app, or the
    /// sync engine applying pulled, merged or deleted records. A transaction that changes only
    /// other types emits nothing; one that changes many models of the type emits once. A reader
    /// slower than the commits gets the newest results, never a stale queue of them. The stream
    /// ends with the store's error if a read fails, and stops reading when it is cancelled.
    public func observe<Model: SyncModel>(
        _ type: Model.Type,
        where isIncluded: @escaping @Sendable (Model) -> Bool = { _ in true },
        sortedBy areInIncreasingOrder: (@Sendable (Model, Model) -> Bool)? = nil
    ) -> AsyncThrowingStream<[Model], any Error> {
        // Listening starts before the first read, so no commit falls between the two.
        let commits = commits()
        let (stream, continuation) = AsyncThrowingStream<[Model], any Error>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let reading = Task {
            do {
                continuation.yield(try fetchAll(type, where: isIncluded, sortedBy: areInIncreasingOrder))
                for await commit in commits where commit.touches(type) {
                    continuation.yield(try fetchAll(type, where: isIncluded, sortedBy: areInIncreasingOrder))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in reading.cancel() }
        return stream
    }
}
